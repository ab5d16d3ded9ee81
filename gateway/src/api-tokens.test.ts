import { randomBytes, randomUUID, createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import {
  API_TOKEN_VERIFY_RPC,
  ApiTokenVerifyRequest,
  CONTEXT_HEADER,
  IDENTITY_EVENTS_HEADER,
  SESSION_COOKIE,
  createEvent,
  type ApiTokenScope,
  type ApiTokenVerifyReply,
  type TrustedContext,
} from '@aict/contracts';
import { publicKeyOf, verifyContext } from '@aict/service-kit';
import { TEST_CONTEXT_PUBLIC_PEM } from '@aict/service-kit/testing';
import { encodeIdentityEvents } from './identity/identity-events-header';
import {
  frontendFixture,
  identityServices,
  isolatedVhost,
  sessionToken,
  sleep,
  startGateway,
  upstream,
  waitFor,
  waitUntilReady,
  type Seen,
} from './testing/fixtures';

// Personal API tokens at the gateway (issue 17): `Authorization: Bearer aict_…` is accepted
// on the routes whose table entry names the token's scope (generation, reading contents)
// and nowhere else; the workspace in view is the token's; the user's current membership is
// checked on every request; the auth service's answer is cached briefly, and a revocation
// takes effect at once. The auth service is stood in for by the test, over the real bus.

jest.setTimeout(30_000);

const CONTEXT_PUBLIC_KEY = publicKeyOf(TEST_CONTEXT_PUBLIC_PEM);

// Users (snapshot data): Alice, user of workspace 1 and admin of 2; Carol and Dave, users of
// workspace 1 (Carol is removed from it, Dave deleted, by tests below).
const ALICE = 'alice';
const CAROL = 'carol';
const DAVE = 'dave';

type TokenInfo = NonNullable<ApiTokenVerifyReply['token']>;

describe('gateway: personal API tokens', () => {
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let services: Awaited<ReturnType<typeof identityServices>>;
  let service: Awaited<ReturnType<typeof upstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let staticDir: string;
  /** What the stand-in auth service knows, by the hash of the secret. */
  const known = new Map<string, TokenInfo>();
  const asked: string[] = [];
  const logLines: string[] = [];

  beforeAll(async () => {
    vhost = await isolatedVhost();
    services = await identityServices(vhost.url, {
      identity: {
        users: [ALICE, CAROL, DAVE].map((id) => ({ id, tokenVersion: 0, isSuperAdmin: false })),
        revokedSessions: [],
      },
      memberships: {
        memberships: [
          { workspaceId: 1, userId: ALICE, role: 'user' },
          { workspaceId: 2, userId: ALICE, role: 'admin' },
          { workspaceId: 1, userId: CAROL, role: 'user' },
          { workspaceId: 1, userId: DAVE, role: 'user' },
        ],
      },
    });
    await services.serve();
    await services.auth.serve(API_TOKEN_VERIFY_RPC, ApiTokenVerifyRequest, ({ hash }) => {
      asked.push(hash);
      return { token: known.get(hash) ?? null };
    });
    service = await upstream();
    staticDir = frontendFixture();
    gateway = await startGateway(
      { AMQP_URL: vhost.url, serviceUrl: service.url, STATIC_DIR: staticDir, LOG_LEVEL: 'debug' },
      { write: (line: string) => void logLines.push(line) },
    );
    await waitUntilReady(gateway.http.url);
  });

  afterAll(async () => {
    try {
      await gateway?.shutdown('test done');
      await services?.close();
      await service?.close();
      if (staticDir) rmSync(staticDir, { recursive: true, force: true });
    } finally {
      await vhost?.dispose();
    }
  });

  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  /** A token the stand-in auth service knows (overrides: its answer for it). */
  function buildToken(overrides: Partial<TokenInfo> = {}) {
    const secret = `aict_${randomBytes(32).toString('base64url')}`;
    const info: TokenInfo = {
      id: randomUUID(),
      userId: ALICE,
      workspaceId: 1,
      scopes: ['generate', 'read-contents'] satisfies ApiTokenScope[],
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      ...overrides,
    };
    known.set(sha256(secret), info);
    return { secret, info };
  }

  async function call(path: string, init: RequestInit & { token?: string; cookie?: string } = {}) {
    const headers = new Headers(init.headers);
    if (init.token !== undefined) headers.set('authorization', `Bearer ${init.token}`);
    if (init.cookie) headers.set('cookie', init.cookie);
    const before = service.requests.length;
    const res = await fetch(`${gateway.http.url}${path}`, { ...init, headers });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    const reached: Seen | undefined = service.requests[before];
    return { res, body, reached };
  }

  function contextOf(seen: Seen | undefined): TrustedContext {
    const token = seen?.headers[CONTEXT_HEADER];
    if (typeof token !== 'string') throw new Error('no context reached the service');
    return verifyContext(CONTEXT_PUBLIC_KEY, token);
  }

  const post = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  describe('accepted', () => {
    it('when a generate token calls POST /api/generate, then the service gets a context of the user in the token’s workspace, with the token id and without the secret', async () => {
      const { secret, info } = buildToken({ scopes: ['generate'] });

      const { res, reached } = await call('/api/generate', {
        token: secret,
        ...post({ prompt: 'hello' }),
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-token-1' },
      });

      expect(res.status).toBe(200);
      expect(contextOf(reached)).toEqual({
        uid: ALICE,
        sa: false,
        roles: { '1': 'user' },
        ws: 1,
        role: 'user',
        rid: 'req-token-1',
        ip: '127.0.0.1',
        tok: info.id,
      });
      expect(reached?.headers.authorization).toBeUndefined();
      expect(reached?.headers['x-workspace-id']).toBe('1');
      expect(JSON.stringify(reached?.headers)).not.toContain(secret);
    });

    it('when a read-contents token reads contents, a conversation, an image and the stats, then each reaches its service', async () => {
      const { secret } = buildToken({ scopes: ['read-contents'] });

      for (const path of [
        '/api/contents',
        '/api/contents/c1',
        '/api/contents/c1/conversation',
        '/api/images/c1',
        '/api/stats?workspaceId=1',
      ]) {
        const { res, reached } = await call(path, {
          token: secret,
          headers: { 'X-Workspace-ID': '1' },
        });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expect(contextOf(reached).ws).toBe(1);
      }
    });

    it('when a token is used again, then the auth service is asked once (the answer is cached)', async () => {
      const { secret } = buildToken();
      const before = asked.length;

      const answers = await Promise.all(
        [1, 2, 3].map(() => call('/api/contents', { token: secret })),
      );
      const again = await call('/api/contents', { token: secret });

      expect([...answers, again].map((a) => a.res.status)).toEqual([200, 200, 200, 200]);
      expect(asked.length - before).toBe(1);
    });
  });

  describe('refused', () => {
    it('when a token calls an administrative route, then it answers 403 and nothing reaches a service', async () => {
      const { secret } = buildToken();
      const before = service.requests.length;

      const calls: Array<[string, RequestInit]> = [
        ['/api/users', {}],
        ['/api/users', post({ username: 'x' })],
        ['/api/workspaces', {}],
        ['/api/settings/openai_api_key', { method: 'PUT' }],
        ['/api/prompts', post({ name: 'x' })],
        ['/api/tokens', {}],
        ['/api/tokens', post({ name: 'x' })],
        ['/api/tokens/t1', { method: 'DELETE' }],
        ['/api/contents/c1', { method: 'DELETE' }],
        ['/api/user', {}],
      ];
      for (const [path, init] of calls) {
        const { res, body } = await call(path, { ...init, token: secret });
        expect({ path, method: init.method, status: res.status, code: body?.code }).toEqual({
          path,
          method: init.method,
          status: 403,
          code: 'AUTH.FORBIDDEN',
        });
      }
      expect(service.requests.length).toBe(before);
    });

    it('when a token lacks the route’s scope, then it answers 403', async () => {
      const generateOnly = buildToken({ scopes: ['generate'] });
      const readOnly = buildToken({ scopes: ['read-contents'] });

      const read = await call('/api/contents', { token: generateOnly.secret });
      const generate = await call('/api/generate', { token: readOnly.secret, ...post({}) });

      for (const { res, body, reached } of [read, generate]) {
        expect(res.status).toBe(403);
        expect(body).toMatchObject({
          code: 'AUTH.FORBIDDEN',
          message: 'This API token does not allow this action.',
        });
        expect(reached).toBeUndefined();
      }
    });

    it('when the request names another workspace (header or query), even one of the user’s, then it answers 403', async () => {
      const { secret } = buildToken({ workspaceId: 1 });

      const header = await call('/api/contents', {
        token: secret,
        headers: { 'X-Workspace-ID': '2' },
      });
      const query = await call('/api/stats?workspaceId=2', { token: secret });
      const both = await call('/api/stats?workspaceId=2', {
        token: secret,
        headers: { 'X-Workspace-ID': '1' },
      });

      for (const { res, body, reached } of [header, query, both]) {
        expect(res.status).toBe(403);
        expect(body).toMatchObject({ code: 'WORKSPACE.FORBIDDEN' });
        expect(reached).toBeUndefined();
      }
    });

    it('when the token is unknown, malformed or expired, then it answers 401', async () => {
      const expired = buildToken({ expiresAt: new Date(Date.now() - 1000).toISOString() });
      const unknown = `aict_${randomBytes(32).toString('base64url')}`;

      for (const token of [unknown, 'not-a-token', '', expired.secret]) {
        const { res, body, reached } = await call('/api/contents', { token });
        expect(res.status).toBe(401);
        expect(body).toMatchObject({
          code: 'AUTH.UNAUTHENTICATED',
          message: 'The API token is invalid, expired or revoked.',
        });
        expect(reached).toBeUndefined();
      }
    });

    it('when a cached token reaches its expiry, then the next request is refused with 401', async () => {
      const { secret } = buildToken({ expiresAt: new Date(Date.now() + 1500).toISOString() });

      const before = await call('/api/contents', { token: secret });
      await sleep(1600);
      const after = await call('/api/contents', { token: secret });

      expect(before.res.status).toBe(200);
      expect(after.res.status).toBe(401);
    });

    it('when the token is revoked (event on the bus), then the cached token is refused at once', async () => {
      const { secret, info } = buildToken();
      expect((await call('/api/contents', { token: secret })).res.status).toBe(200);

      await services.auth.publish('api-token.revoked', {
        tokenId: info.id,
        userId: info.userId,
        expiresAt: info.expiresAt,
      });

      await waitFor(
        async () => (await call('/api/contents', { token: secret })).res.status === 401,
        5000,
        'the revoked token to be refused',
      );
    });

    it('when the revoking answer passes through the gateway, then the very next request with the token is refused', async () => {
      const { secret, info } = buildToken();
      expect((await call('/api/contents', { token: secret })).res.status).toBe(200);
      const revoked = createEvent(
        'api-token.revoked',
        { tokenId: info.id, userId: info.userId, expiresAt: info.expiresAt },
        { correlationId: 'revoke-1' },
      );
      service.on(`/api/tokens/${info.id}`, (_req, res) => {
        res.setHeader(IDENTITY_EVENTS_HEADER, encodeIdentityEvents([revoked]));
        res.statusCode = 204;
        res.end();
      });
      const cookie = `${SESSION_COOKIE}=${sessionToken({ sub: ALICE })}`;

      const revoke = await call(`/api/tokens/${info.id}`, { method: 'DELETE', cookie });
      const next = await call('/api/contents', { token: secret });

      expect(revoke.res.status).toBe(204);
      expect(next.res.status).toBe(401);
    });

    it('when the user is removed from the token’s workspace, then it answers 403; when the user is deleted, 401', async () => {
      const carol = buildToken({ userId: CAROL });
      const dave = buildToken({ userId: DAVE });
      expect((await call('/api/contents', { token: carol.secret })).res.status).toBe(200);
      expect((await call('/api/contents', { token: dave.secret })).res.status).toBe(200);

      await services.workspace.publish('membership.changed', {
        workspaceId: 1,
        userId: CAROL,
        role: null,
      });
      await services.auth.publish('user.deleted', { userId: DAVE });

      await waitFor(
        async () => (await call('/api/contents', { token: carol.secret })).res.status === 403,
        5000,
        'the removed member to be refused',
      );
      await waitFor(
        async () => (await call('/api/contents', { token: dave.secret })).res.status === 401,
        5000,
        'the deleted user to be refused',
      );
    });
  });

  describe('logs', () => {
    it('when calls are made with a token, then the access log names the token id and no line holds the secret', async () => {
      const { secret, info } = buildToken({ scopes: ['read-contents'] });
      const from = logLines.length;

      await call('/api/contents?x=1', { token: secret });
      await call('/api/generate', { token: secret, ...post({}) });
      await call('/api/users', { token: secret });

      await waitFor(() => logLines.slice(from).join('').includes(info.id), 5000, 'the log line');
      const logs = logLines.slice(from).join('');
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain(secret.slice(5));
      const accepted = logLines
        .slice(from)
        .map((line) => JSON.parse(line) as { apiTokenId?: string; req?: { url?: string } })
        .find((line) => line.req?.url === '/api/contents?x=1');
      expect(accepted?.apiTokenId).toBe(info.id);
    });
  });
});
