import { createHmac, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import {
  CONTEXT_HEADER,
  IDENTITY_EVENTS_HEADER,
  SESSION_COOKIE,
  createEvent,
  type TrustedContext,
} from '@aict/contracts';
import { publicKeyOf, verifyContext } from '@aict/service-kit';
import { TEST_CONTEXT_PUBLIC_PEM } from '@aict/service-kit/testing';
import { encodeIdentityEvents } from './identity/identity-events-header';
import {
  FORGER_KEYS,
  SESSION_KEYS,
  frontendFixture,
  identityServices,
  isolatedVhost,
  pem,
  sessionToken,
  startGateway,
  upstream,
  waitFor,
  waitUntilReady,
  type Seen,
} from './testing/fixtures';

jest.setTimeout(30_000);

const CONTEXT_PUBLIC_KEY = publicKeyOf(TEST_CONTEXT_PUBLIC_PEM);

// Users of this file (snapshot data): a user of workspaces 1 (user) and 2 (admin), a super
// administrator who belongs to no workspace, and one whose token version was raised to 3.
const ALICE = 'alice';
const ROOT = 'root';
const BOB = 'bob';

describe('gateway: authentication, workspaces and the trusted context', () => {
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let services: Awaited<ReturnType<typeof identityServices>>;
  let service: Awaited<ReturnType<typeof upstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let staticDir: string;

  beforeAll(async () => {
    vhost = await isolatedVhost();
    services = await identityServices(vhost.url, {
      identity: {
        users: [
          { id: ALICE, tokenVersion: 0, isSuperAdmin: false },
          { id: ROOT, tokenVersion: 0, isSuperAdmin: true },
          { id: BOB, tokenVersion: 3, isSuperAdmin: false },
        ],
        revokedSessions: [],
      },
      memberships: {
        memberships: [
          { workspaceId: 1, userId: ALICE, role: 'user' },
          { workspaceId: 2, userId: ALICE, role: 'admin' },
          { workspaceId: 1, userId: BOB, role: 'user' },
        ],
      },
    });
    await services.serve();
    service = await upstream();
    staticDir = frontendFixture();
    gateway = await startGateway({
      AMQP_URL: vhost.url,
      serviceUrl: service.url,
      STATIC_DIR: staticDir,
    });
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

  /** A user of this file, with a fresh session of their own. */
  function signIn(sub: string, tv = sub === BOB ? 3 : 0) {
    const sid = randomUUID();
    return { sid, cookie: `${SESSION_COOKIE}=${sessionToken({ sub, sid, tv })}` };
  }

  async function call(path: string, init: RequestInit & { cookie?: string } = {}) {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set('cookie', init.cookie);
    const before = service.requests.length;
    const res = await fetch(`${gateway.http.url}${path}`, { ...init, headers });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    const reached: Seen | undefined = service.requests[before];
    return { res, body, reached };
  }

  /** The context the service received, verified as a service verifies it. */
  function contextOf(seen: Seen | undefined): TrustedContext {
    const token = seen?.headers[CONTEXT_HEADER];
    if (typeof token !== 'string') throw new Error('no context reached the service');
    return verifyContext(CONTEXT_PUBLIC_KEY, token);
  }

  describe('a valid session', () => {
    it('when a member calls with X-Workspace-ID, then the service gets a verifiable context naming the caller, workspace and role', async () => {
      const { cookie } = signIn(ALICE);

      const { res, reached } = await call('/api/prompts?x=1', {
        cookie,
        headers: { 'X-Workspace-ID': '2', 'x-request-id': 'req-ctx-1' },
      });

      expect(res.status).toBe(200);
      expect(reached?.url).toBe('/api/prompts?x=1');
      expect(contextOf(reached)).toEqual({
        uid: ALICE,
        sa: false,
        roles: { '1': 'user', '2': 'admin' },
        ws: 2,
        role: 'admin',
        rid: 'req-ctx-1',
        ip: '127.0.0.1',
      });
      expect(reached?.headers['x-request-id']).toBe('req-ctx-1');
    });

    it('when the workspace comes in lower-case x-workspace-id or as ?workspaceId, then it is resolved the same way', async () => {
      const { cookie } = signIn(ALICE);

      const lower = await call('/api/contents', { cookie, headers: { 'x-workspace-id': '1' } });
      const query = await call('/api/prompts?workspaceId=2', { cookie });
      const none = await call('/api/prompts', { cookie });

      expect(contextOf(lower.reached)).toMatchObject({ ws: 1, role: 'user' });
      expect(contextOf(query.reached)).toMatchObject({ ws: 2, role: 'admin' });
      expect(contextOf(none.reached)).toMatchObject({ ws: null, role: null });
    });

    it('when a super administrator names a workspace they do not belong to, then it passes with role admin', async () => {
      const { cookie } = signIn(ROOT);

      const { res, reached } = await call('/api/workspaces/7/settings/openai_api_key', {
        cookie,
        headers: { 'x-workspace-id': '7' },
      });

      expect(res.status).toBe(200);
      expect(contextOf(reached)).toMatchObject({
        uid: ROOT,
        sa: true,
        roles: {},
        ws: 7,
        role: 'admin',
      });
    });
  });

  describe('workspaces the caller may not use', () => {
    it.each([
      ['the X-Workspace-ID header', { 'X-Workspace-ID': '3' }, '/api/prompts'],
      ['the x-workspace-id header', { 'x-workspace-id': '3' }, '/api/contents/abc'],
      ['the workspaceId query parameter', {}, '/api/prompts?workspaceId=3'],
      [
        'a query parameter beside a header of their own',
        { 'x-workspace-id': '1' },
        '/api/stats?workspaceId=3',
      ],
    ])(
      'when a non-member names a workspace in %s, then the gateway answers 403 without reaching the service',
      async (_where, headers, path) => {
        const { cookie } = signIn(ALICE);

        const { res, body, reached } = await call(path, { cookie, headers });

        expect(res.status).toBe(403);
        expect(body).toMatchObject({ code: 'WORKSPACE.FORBIDDEN' });
        expect(reached).toBeUndefined();
      },
    );

    it.each(['abc', '0', '-1', '1.5', '1, 2', '99999999999999999'])(
      'when the workspace id is %p, then the answer is 400',
      async (id) => {
        const { cookie } = signIn(ALICE);

        const { res, body, reached } = await call('/api/prompts', {
          cookie,
          headers: { 'x-workspace-id': id },
        });

        expect(res.status).toBe(400);
        expect(body).toMatchObject({ code: 'VALIDATION.FAILED' });
        expect(reached).toBeUndefined();
      },
    );

    it('when a stale workspace header comes with a route that acts in no workspace, then the call passes without the workspace', async () => {
      const { cookie } = signIn(ALICE);

      const mine = await call('/api/user/workspaces', {
        cookie,
        headers: { 'x-workspace-id': '3' },
      });
      const user = await call('/api/user', { cookie, headers: { 'x-workspace-id': 'garbage' } });

      expect(mine.res.status).toBe(200);
      expect(contextOf(mine.reached)).toMatchObject({ uid: ALICE, ws: null, role: null });
      expect(contextOf(user.reached)).toMatchObject({ uid: ALICE, ws: null });
    });

    it("when a stale workspace header comes with the save of the caller's own language, then the save passes without the workspace", async () => {
      const { cookie } = signIn(ALICE);

      const saved = await call('/api/user', {
        method: 'PATCH',
        cookie,
        headers: { 'x-workspace-id': '3', 'content-type': 'application/json' },
        body: JSON.stringify({ language: 'nl' }),
      });

      expect(saved.res.status).toBe(200);
      expect(contextOf(saved.reached)).toMatchObject({ uid: ALICE, ws: null });
    });
  });

  describe('tokens that are refused', () => {
    const refused: Array<[string, () => string]> = [
      [
        'signed with another key (forged)',
        () => sessionToken({ sub: ALICE }, { key: FORGER_KEYS.privateKey }),
      ],
      ['expired', () => sessionToken({ sub: ALICE }, { expiresIn: -10 })],
      [
        'tampered (another user put in a validly signed token)',
        () => {
          const [header, payload, signature] = sessionToken({ sub: ALICE }).split('.');
          const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
          const forged = Buffer.from(JSON.stringify({ ...claims, sub: ROOT })).toString(
            'base64url',
          );
          return `${header}.${forged}.${signature}`;
        },
      ],
      [
        'HS256 with the public key as the secret',
        () => {
          const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
          const now = Math.floor(Date.now() / 1000);
          const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: ROOT, sid: 's1', tv: 0, iss: 'aict-auth', aud: 'aict', iat: now, exp: now + 600 })}`;
          const mac = createHmac('sha256', pem(SESSION_KEYS.publicKey))
            .update(signed)
            .digest('base64url');
          return `${signed}.${mac}`;
        },
      ],
      [
        "'none' (unsigned)",
        () => {
          const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
          const now = Math.floor(Date.now() / 1000);
          return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: ROOT, sid: 's1', tv: 0, iss: 'aict-auth', aud: 'aict', iat: now, exp: now + 600 })}.`;
        },
      ],
      ['from another issuer', () => sessionToken({ sub: ALICE }, { issuer: 'someone-else' })],
      ['for another audience', () => sessionToken({ sub: ALICE }, { audience: 'other-app' })],
      ['of a user the gateway does not know', () => sessionToken({ sub: 'stranger' })],
      ['older than the user’s token version', () => sessionToken({ sub: BOB, tv: 2 })],
      ['not a token at all', () => 'not.a.token'],
    ];

    it.each(refused)(
      'when the session token is %s, then /api answers 401 and the service is not reached',
      async (_what, token) => {
        const { res, body, reached } = await call('/api/prompts', {
          cookie: `${SESSION_COOKIE}=${token()}`,
        });

        expect(res.status).toBe(401);
        expect(body).toEqual({ code: 'AUTH.UNAUTHENTICATED', message: 'Not authenticated' });
        expect(reached).toBeUndefined();
      },
    );

    it.each(refused)(
      'when the session token is %s, then a public route gets a signed-out context',
      async (_what, token) => {
        const { res, reached } = await call('/api/user', {
          cookie: `${SESSION_COOKIE}=${token()}`,
        });

        expect(res.status).toBe(200);
        expect(contextOf(reached)).toMatchObject({
          uid: null,
          sa: false,
          roles: {},
          ws: null,
          role: null,
        });
      },
    );

    it('when nobody is signed in, then only the public routes reach a service', async () => {
      const login = await call('/api/login', {
        method: 'POST',
        body: '{"username":"a","password":"b"}',
      });
      const register = await call('/api/register', { method: 'POST', body: '{}' });
      const logout = await call('/api/logout', { method: 'POST' });
      const user = await call('/api/user', { headers: { 'x-workspace-id': '1' } });
      const other = await call('/api/user/workspaces');
      const users = await call('/api/users');
      const putLogin = await call('/api/login', { method: 'PUT' });

      for (const r of [login, register, logout, user]) {
        expect(r.res.status).toBe(200);
        expect(contextOf(r.reached)).toMatchObject({ uid: null, ws: null, ip: '127.0.0.1' });
      }
      for (const r of [other, users, putLogin]) {
        expect(r.res.status).toBe(401);
        expect(r.reached).toBeUndefined();
      }
    });
  });

  describe('identity headers from the client', () => {
    it('when a client sends identity or context headers, then the service never sees them and gets the gateway’s context', async () => {
      const { cookie } = signIn(ALICE);
      const forged = sessionToken({ sub: ROOT }, { key: FORGER_KEYS.privateKey });

      const { reached } = await call('/api/workspaces', {
        cookie,
        headers: {
          'x-aict-context': forged,
          'X-AICT-Identity-Events': encodeIdentityEvents([]),
          'x-user-id': ROOT,
          'x-user-role': 'admin',
          'x-user-email': 'root@example.com',
          'x-workspace-role': 'admin',
          'x-forwarded-user': ROOT,
        },
      });

      expect(contextOf(reached)).toMatchObject({ uid: ALICE, sa: false });
      expect(reached?.headers[IDENTITY_EVENTS_HEADER]).toBeUndefined();
      for (const name of [
        'x-user-id',
        'x-user-role',
        'x-user-email',
        'x-workspace-role',
        'x-forwarded-user',
      ]) {
        expect(reached?.headers[name]).toBeUndefined();
      }
    });
  });

  describe('revocation', () => {
    it('when a session.revoked event arrives, then that session is refused and another one of the user is not', async () => {
      const mine = signIn(ALICE);
      const other = signIn(ALICE);
      expect((await call('/api/prompts', { cookie: mine.cookie })).res.status).toBe(200);

      await services.auth.publish('session.revoked', {
        sessionId: mine.sid,
        userId: ALICE,
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      });

      await waitFor(
        async () => (await call('/api/prompts', { cookie: mine.cookie })).res.status === 401,
      );
      expect((await call('/api/prompts', { cookie: other.cookie })).res.status).toBe(200);
    });

    it('when user.sessions-revoked raises the token version, then older tokens are refused and new ones pass', async () => {
      const user = `carol-${randomUUID().slice(0, 8)}`;
      await services.auth.publish('user.created', {
        userId: user,
        username: user,
        email: `${user}@example.com`,
        isSuperAdmin: false,
      });
      const old = `${SESSION_COOKIE}=${sessionToken({ sub: user, tv: 0 })}`;
      await waitFor(async () => (await call('/api/prompts', { cookie: old })).res.status === 200);

      await services.auth.publish('user.sessions-revoked', { userId: user, tokenVersion: 1 });

      await waitFor(async () => (await call('/api/prompts', { cookie: old })).res.status === 401);
      const fresh = `${SESSION_COOKIE}=${sessionToken({ sub: user, tv: 1 })}`;
      expect((await call('/api/prompts', { cookie: fresh })).res.status).toBe(200);
    });

    it('when user.deleted arrives, then every token of that user is refused', async () => {
      const user = `dave-${randomUUID().slice(0, 8)}`;
      await services.auth.publish('user.created', {
        userId: user,
        username: user,
        email: `${user}@example.com`,
        isSuperAdmin: false,
      });
      const cookie = `${SESSION_COOKIE}=${sessionToken({ sub: user })}`;
      await waitFor(async () => (await call('/api/prompts', { cookie })).res.status === 200);

      await services.auth.publish('user.deleted', { userId: user });

      await waitFor(async () => (await call('/api/prompts', { cookie })).res.status === 401);
    });

    it('when a service answers with x-aict-identity-events, then they apply before the client gets the answer, and the header is stripped', async () => {
      const { sid, cookie } = signIn(ALICE);
      service.on('/api/logout', (_req, res) => {
        const event = createEvent(
          'session.revoked',
          {
            sessionId: sid,
            userId: ALICE,
            expiresAt: new Date(Date.now() + 3600_000).toISOString(),
          },
          { correlationId: 'logout-1' },
        );
        res.setHeader(IDENTITY_EVENTS_HEADER, encodeIdentityEvents([event]));
        res.setHeader('x-aict-something-else', 'internal');
        res.setHeader(
          'set-cookie',
          `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`,
        );
        res.end('{}');
      });

      const logout = await call('/api/logout', { method: 'POST', cookie });
      const next = await call('/api/prompts', { cookie });

      expect(logout.res.status).toBe(200);
      expect(logout.res.headers.get(IDENTITY_EVENTS_HEADER)).toBeNull();
      expect(logout.res.headers.get('x-aict-something-else')).toBeNull();
      expect(logout.res.headers.get('set-cookie')).toContain(`${SESSION_COOKIE}=;`);
      expect(next.res.status).toBe(401); // the very next request, without waiting for RabbitMQ
    });

    it('when the identity-events header is not valid, then it is ignored and stripped, and the answer still goes through', async () => {
      service.on('/api/users', (_req, res) => {
        res.setHeader(IDENTITY_EVENTS_HEADER, 'this is not base64url json');
        res.end('[]');
      });
      const { cookie } = signIn(ROOT);

      const { res } = await call('/api/users', { cookie });

      expect(res.status).toBe(200);
      expect(res.headers.get(IDENTITY_EVENTS_HEADER)).toBeNull();
    });
  });

  describe('roles that change', () => {
    it('when membership.changed events arrive, then the next requests carry the new role, and none once removed', async () => {
      const { cookie } = signIn(BOB);
      const roleIn1 = async () => {
        const { res, reached } = await call('/api/prompts', {
          cookie,
          headers: { 'x-workspace-id': '1' },
        });
        return res.status === 200 ? contextOf(reached).role : res.status;
      };
      expect(await roleIn1()).toBe('user');

      await services.workspace.publish('membership.changed', {
        workspaceId: 1,
        userId: BOB,
        role: 'admin',
      });
      await waitFor(async () => (await roleIn1()) === 'admin', 5000, 'the admin role');

      await services.workspace.publish('membership.changed', {
        workspaceId: 1,
        userId: BOB,
        role: null,
      });
      await waitFor(async () => (await roleIn1()) === 403, 5000, 'the removal');
    });

    it('when a membership change comes in a service’s answer, then the very next request carries it', async () => {
      const user = `erin-${randomUUID().slice(0, 8)}`;
      const created = createEvent(
        'user.created',
        { userId: user, username: user, email: `${user}@example.com`, isSuperAdmin: false },
        { correlationId: 'c1' },
      );
      const joined = createEvent(
        'membership.changed',
        { workspaceId: 5, userId: user, role: 'admin' },
        { correlationId: 'c1' },
      );
      service.on('/api/users', (_req, res) => {
        res.setHeader(IDENTITY_EVENTS_HEADER, encodeIdentityEvents([created, joined]));
        res.statusCode = 201;
        res.end('{}');
      });
      const { cookie } = signIn(ROOT);
      const theirs = `${SESSION_COOKIE}=${sessionToken({ sub: user })}`;

      expect((await call('/api/users', { method: 'POST', cookie })).res.status).toBe(201);
      const { res, reached } = await call('/api/prompts', {
        cookie: theirs,
        headers: { 'x-workspace-id': '5' },
      });

      expect(res.status).toBe(200);
      expect(contextOf(reached)).toMatchObject({
        uid: user,
        roles: { '5': 'admin' },
        ws: 5,
        role: 'admin',
      });
    });
  });
});
