import { generateKeyPairSync } from 'node:crypto';
import express from 'express';
import jwt from 'jsonwebtoken';
import { CONTEXT_AUDIENCE, CONTEXT_HEADER, CONTEXT_ISSUER } from '@aict/contracts';
import { TEST_CONTEXT_KEYS, TEST_CONTEXT_PUBLIC_PEM, signTestContext } from '../testing';
import { captureLogs } from '../test-support';
import { errorHandler } from './error-handler';
import { startServer, type ServerHandle } from './server';
import { keyIdOf } from './signed-token';
import {
  assertMember,
  CONTEXT_TOKEN_TYPE,
  requireContext,
  roleIn,
  verifyContext,
} from './trusted-context';

describe('requireContext', () => {
  let server: ServerHandle;

  beforeAll(async () => {
    const app = express();
    app.get('/me', requireContext(TEST_CONTEXT_PUBLIC_PEM), (req, res) => {
      res.json({ uid: req.ctx?.uid, role: req.ctx ? roleIn(req.ctx, 3) : null });
    });
    app.get('/ws/:id', requireContext(TEST_CONTEXT_PUBLIC_PEM), (req, res) => {
      res.json({ role: assertMember(req.ctx!, Number(req.params.id)) });
    });
    app.use(errorHandler(captureLogs().logger));
    server = await startServer(app, { port: 0 });
  });
  afterAll(() => server.close());

  const get = (path: string, token?: string) =>
    fetch(`${server.url}${path}`, { headers: token ? { [CONTEXT_HEADER]: token } : {} });

  it('when the gateway signed the context, then the route sees the caller and their roles', async () => {
    const res = await get('/me', signTestContext({ uid: 'u1', roles: { 3: 'admin' } }));

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ uid: 'u1', role: 'admin' });
  });

  it('when there is no context (a service reached directly), then it is 401', async () => {
    expect((await get('/me')).status).toBe(401);
  });

  it('when the context is signed by another key, then it is 401', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const forged = jwt.sign(
      { uid: 'u1', sa: true, roles: {}, ws: null, role: null, rid: 'r', ip: '' },
      other,
      {
        algorithm: 'ES256',
        issuer: CONTEXT_ISSUER,
        audience: CONTEXT_AUDIENCE,
      },
    );

    expect((await get('/me', forged)).status).toBe(401);
  });

  it('when the context uses another algorithm (HS256 with the public key as secret), then it is 401', async () => {
    const confused = jwt.sign(
      { uid: 'u1', sa: true, roles: {}, ws: null, role: null, rid: 'r', ip: '' },
      TEST_CONTEXT_PUBLIC_PEM,
      {
        algorithm: 'HS256',
        issuer: CONTEXT_ISSUER,
        audience: CONTEXT_AUDIENCE,
      },
    );

    expect((await get('/me', confused)).status).toBe(401);
  });

  it('when the context has expired or was tampered with, then it is 401', async () => {
    const expired = signTestContext({ uid: 'u1' }, -10);
    const [h, p, s] = signTestContext({ uid: 'u1' }).split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = [
      h,
      Buffer.from(JSON.stringify({ ...payload, sa: true })).toString('base64url'),
      s,
    ].join('.');

    expect((await get('/me', expired)).status).toBe(401);
    expect((await get('/me', tampered)).status).toBe(401);
  });

  it('when the caller is signed out, then a signed-in route is 401', async () => {
    expect((await get('/me', signTestContext({ uid: null }))).status).toBe(401);
  });

  it('when the workspace is not one of the caller’s, then it is 404; a super admin sees any', async () => {
    expect((await get('/ws/9', signTestContext({ uid: 'u1', roles: { 3: 'user' } }))).status).toBe(
      404,
    );
    expect((await get('/ws/3', signTestContext({ uid: 'u1', roles: { 3: 'user' } }))).status).toBe(
      200,
    );
    expect(await (await get('/ws/9', signTestContext({ uid: 'u2', sa: true }))).json()).toEqual({
      role: 'admin',
    });
  });
});

describe('verifyContext: the header and the times are pinned', () => {
  const claims = { uid: 'u1', sa: true, roles: {}, ws: null, role: null, rid: 'r', ip: '' };
  const now = () => Math.floor(Date.now() / 1000);

  /** A context signed with the gateway's real key, with `header` and times chosen by the test. */
  function craft(
    options: { header?: Record<string, unknown>; iat?: number | null; exp?: number | null } = {},
  ): string {
    const payload: Record<string, unknown> = {
      ...claims,
      iss: CONTEXT_ISSUER,
      aud: CONTEXT_AUDIENCE,
    };
    const iat = options.iat === undefined ? now() : options.iat;
    const exp = options.exp === undefined ? now() + 60 : options.exp;
    if (iat !== null) payload.iat = iat;
    if (exp !== null) payload.exp = exp;
    const header = {
      alg: 'ES256',
      typ: CONTEXT_TOKEN_TYPE,
      kid: keyIdOf(TEST_CONTEXT_KEYS.publicKey),
      ...options.header,
    };
    return jwt.sign(payload, TEST_CONTEXT_KEYS.privateKey, {
      algorithm: 'ES256',
      header: header as jwt.JwtHeader,
      noTimestamp: iat === null,
    });
  }

  it('when the context is well formed, then it verifies (the crafting is sound)', () => {
    expect(verifyContext(TEST_CONTEXT_KEYS.publicKey, craft())).toMatchObject({ uid: 'u1' });
  });

  it.each([
    ['has no exp', { exp: null }],
    ['has no iat', { iat: null }],
    ['was issued in the future', { iat: now() + 3600, exp: now() + 3660 }],
    ['lives far longer than a context does', { exp: now() + 30 * 24 * 3600 }],
    ['has another typ', { header: { typ: 'at+jwt' } }],
    ['has no typ', { header: { typ: undefined } }],
    ['names an unknown kid', { header: { kid: 'someone-else' } }],
    ['names no kid', { header: { kid: undefined } }],
    ['carries a crit header', { header: { crit: ['exp'] } }],
  ])('when the context %s, then it is refused', (_what, options) => {
    const token = craft(options as Parameters<typeof craft>[0]);

    expect(() => verifyContext(TEST_CONTEXT_KEYS.publicKey, token)).toThrow();
  });

  it('when a signed context carries the pinned header, then it names the key and the type', () => {
    const token = signTestContext({ uid: 'u1' });

    expect(jwt.decode(token, { complete: true })?.header).toEqual({
      alg: 'ES256',
      typ: CONTEXT_TOKEN_TYPE,
      kid: keyIdOf(TEST_CONTEXT_KEYS.publicKey),
    });
  });
});
