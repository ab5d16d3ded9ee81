import { generateKeyPairSync } from 'node:crypto';
import express from 'express';
import jwt from 'jsonwebtoken';
import { CONTEXT_AUDIENCE, CONTEXT_HEADER, CONTEXT_ISSUER } from '@aict/contracts';
import { TEST_CONTEXT_PUBLIC_PEM, signTestContext } from '../testing';
import { captureLogs } from '../test-support';
import { errorHandler } from './error-handler';
import { startServer, type ServerHandle } from './server';
import { assertMember, requireContext, roleIn } from './trusted-context';

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
