import { randomBytes } from 'node:crypto';
import {
  SESSION_COOKIE,
  SYNC_SSO_MEMBERSHIPS_RPC,
  SyncSsoMembershipsRequest,
  type OidcStatus,
  type Role,
  type User,
} from '@aict/contracts';
import type { Served } from '@aict/service-kit';
import { checkAnswer } from '@aict/service-kit/testing';
import { oidcClient } from '../rpc/oidc.client';
import {
  as,
  newWorkspaceId,
  signedOut,
  startAuth,
  TEST_SUPER_ADMIN,
  type AuthKit,
} from '../test-support/auth-test-kit';
import {
  callAuth,
  CookieJar,
  followProvider,
  startTestProvider,
  TEST_CLIENT,
  TEST_REDIRECT_URI,
  walkToCallback,
  type TestProvider,
} from '../test-support/oidc-test-kit';

jest.setTimeout(60_000);

let provider: TestProvider;
let kit: AuthKit;
const served: Served[] = [];

/** Workspaces by name, as the workspace service would resolve them (its own tests cover it). */
const workspaces = new Map<string, number>();
const grantsSeen: SyncSsoMembershipsRequest[] = [];

/**
 * The workspace service's side of the sync, as a stand-in: the user's memberships become
 * the granted ones; a `membership.changed` per change, published and sent back.
 */
async function serveWorkspaceSync(k: AuthKit) {
  const memberships = new Map<string, Map<number, Role>>();
  const server = await k.workspaceBus.serve(
    SYNC_SSO_MEMBERSHIPS_RPC,
    SyncSsoMembershipsRequest,
    async (req) => {
      grantsSeen.push(req);
      const current = memberships.get(req.userId) ?? new Map<number, Role>();
      const wanted = new Map<number, Role>();
      for (const grant of req.grants) {
        const id = workspaces.get(grant.workspaceName.toLowerCase());
        if (id !== undefined) wanted.set(id, grant.role);
      }
      const events = [];
      for (const workspaceId of current.keys()) {
        if (!wanted.has(workspaceId)) {
          events.push(
            await k.workspaceBus.publish('membership.changed', {
              workspaceId,
              userId: req.userId,
              role: null,
            }),
          );
        }
      }
      for (const [workspaceId, role] of wanted) {
        if (current.get(workspaceId) !== role) {
          events.push(
            await k.workspaceBus.publish('membership.changed', {
              workspaceId,
              userId: req.userId,
              role,
            }),
          );
        }
      }
      memberships.set(req.userId, wanted);
      return {
        memberships: [...wanted].map(([workspaceId, role]) => ({ workspaceId, role })),
        unknown: [],
        kept: [],
        events: events as unknown as Record<string, unknown>[],
      };
    },
  );
  served.push(server);
}

beforeAll(async () => {
  provider = await startTestProvider();
  kit = await startAuth(provider.env);
  await serveWorkspaceSync(kit);
}, 60_000);

afterAll(async () => {
  await Promise.all(served.map((s) => s.close()));
  await kit?.stop();
  await provider?.stop();
}, 60_000);

function newWorkspace(): { name: string; id: number } {
  const name = `Team ${randomBytes(3).toString('hex')}`;
  const id = newWorkspaceId();
  workspaces.set(name.toLowerCase(), id);
  return { name, id };
}

async function newAccount(groups: string[]) {
  const sub = `sub-${randomBytes(4).toString('hex')}`;
  const username = `sso_${randomBytes(3).toString('hex')}`;
  await provider.setAccount(sub, {
    email: `${username}@example.com`,
    preferred_username: username,
    groups,
  });
  return { sub, username };
}

/** A whole sign-in as a browser does it: the app's cookies, the provider, the callback. */
async function signIn(k: AuthKit, sub: string) {
  await provider.loginAs(sub);
  const app = new CookieJar();
  const callback = await walkToCallback(k, app);
  const answer = await callAuth(k, callback, app);
  return { answer, session: app.cookies.get(SESSION_COOKIE) };
}

/** GET /api/user as the gateway forwards it once it has verified the session token. */
async function currentUser(k: AuthKit, session: string) {
  const payload = session.split('.')[1]!;
  const { sub } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub: string };
  return k.call<User>('GET', '/api/user', { ctx: as(sub) });
}

describe('GET /api/auth/oidc', () => {
  it('when single sign-on is configured, then it says so with the button label', async () => {
    const res = await kit.call<OidcStatus>('GET', '/api/auth/oidc', { ctx: signedOut() });

    expect(checkAnswer('GET', '/api/auth/oidc', res)).toEqual({ enabled: true, label: 'Test IdP' });
  });
});

describe('single sign-on through a real OpenID Connect provider', () => {
  it('when a user signs in for the first time, then the account is created with the memberships the groups map to', async () => {
    const [marketing, sales] = [newWorkspace(), newWorkspace()];
    const { sub, username } = await newAccount([
      `aict:${marketing.name}:admin`,
      `aict:${sales.name}:user`,
      'unrelated-group',
      'aict:bad-role-value',
    ]);

    const { answer, session } = await signIn(kit, sub);

    expect(checkAnswer('GET', '/api/auth/oidc/callback', { ...answer, body: '' })).toBeUndefined();
    expect(answer.location).toBe('/');
    expect(session).toBeDefined();
    const me = await currentUser(kit, session!);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      username,
      email: `${username}@example.com`,
      workspaceRoles: { [marketing.id]: 'admin', [sales.id]: 'user' },
    });
    expect(grantsSeen.at(-1)?.grants).toEqual([
      { workspaceName: marketing.name, role: 'admin' },
      { workspaceName: sales.name, role: 'user' },
    ]);
  });

  it('when a group is removed at the provider, then the next sign-in removes that membership (same user)', async () => {
    const [kept, dropped] = [newWorkspace(), newWorkspace()];
    const { sub } = await newAccount([`aict:${kept.name}:user`, `aict:${dropped.name}:admin`]);
    const first = await signIn(kit, sub);
    const before = await currentUser(kit, first.session!);

    await provider.setAccount(sub, {
      email: before.body.email,
      preferred_username: before.body.username,
      groups: [`aict:${kept.name}:user`],
    });
    const second = await signIn(kit, sub);
    const after = await currentUser(kit, second.session!);

    expect(before.body.workspaceRoles).toEqual({ [kept.id]: 'user', [dropped.id]: 'admin' });
    expect(after.body.id).toBe(before.body.id);
    expect(after.body.workspaceRoles).toEqual({ [kept.id]: 'user' });
  });

  it('when the callback brings another sign-in’s state, then it is refused and no session is set', async () => {
    const { sub } = await newAccount([]);
    await provider.loginAs(sub);
    const browser = new CookieJar();
    await walkToCallback(kit, browser); // the browser's own sign-in, abandoned
    const other = new CookieJar();
    const foreignCallback = await walkToCallback(kit, other); // someone else's code and state

    const answer = await callAuth(kit, foreignCallback, browser);

    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/auth?sso=failed');
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('when the callback comes without a sign-in under way (or a forged cookie), then it is refused', async () => {
    const { sub } = await newAccount([]);
    await provider.loginAs(sub);
    const app = new CookieJar();
    const callback = await walkToCallback(kit, app);
    const forged = new CookieJar();
    forged.cookies.set('aict_oidc', `${app.cookies.get('aict_oidc')!.split('.')[0]}.forged`);

    const none = await callAuth(kit, callback, new CookieJar());
    const tampered = await callAuth(kit, callback, forged);

    expect([none.location, tampered.location]).toEqual(['/auth?sso=failed', '/auth?sso=failed']);
    expect(forged.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('when the nonce or the PKCE verifier does not match, then the client refuses the answer', async () => {
    const client = oidcClient({
      issuerUrl: provider.issuer,
      clientId: TEST_CLIENT.id,
      clientSecret: TEST_CLIENT.secret,
      redirectUri: TEST_REDIRECT_URI,
      scopes: 'openid email profile groups',
      allowHttp: true,
    });
    const { sub } = await newAccount([]);
    await provider.loginAs(sub);
    const flows = await Promise.all([client.start(), client.start(), client.start()]);
    const queries = [];
    for (const flow of flows) {
      const callback = await followProvider(flow.url.href);
      queries.push(new URL(callback, TEST_REDIRECT_URI).search);
    }
    const [good, badNonce, badVerifier] = flows.map((f) => f.pending);

    await expect(
      client.finish(queries[1]!, { ...badNonce!, nonce: 'not-the-nonce' }),
    ).rejects.toThrow();
    await expect(
      client.finish(queries[2]!, { ...badVerifier!, codeVerifier: good!.codeVerifier }),
    ).rejects.toThrow();
    await expect(client.finish(queries[0]!, good!)).resolves.toMatchObject({ sub });
  });
});

describe('password sign-in of users who came through single sign-on', () => {
  async function ssoUserWithPassword(k: AuthKit) {
    const { sub } = await newAccount([]);
    const { session } = await signIn(k, sub);
    const me = await currentUser(k, session!);
    const admin = await k.call<User>('POST', '/api/login', {
      ctx: signedOut(),
      body: { username: TEST_SUPER_ADMIN.username, password: TEST_SUPER_ADMIN.password },
    });
    const password = 'a-password-set-by-an-admin';
    const reset = await k.call('POST', `/api/users/${me.body.id}/reset-password`, {
      ctx: as(admin.body.id, { sa: true }),
      body: { password },
    });
    expect(reset).toMatchObject({ status: 204 });
    return k.call('POST', '/api/login', {
      ctx: signedOut(),
      body: { username: me.body.username, password },
    });
  }

  it('when password sign-in stays on (the default), then such a user may sign in with a password', async () => {
    const login = await ssoUserWithPassword(kit);

    expect(login.status).toBe(200);
  });

  it('when OIDC_PASSWORD_LOGIN=false, then such a user is refused a password sign-in', async () => {
    const strict = await startAuth({ ...provider.env, OIDC_PASSWORD_LOGIN: 'false' });
    try {
      await serveWorkspaceSync(strict);
      const login = await ssoUserWithPassword(strict);
      const admin = await strict.call('POST', '/api/login', {
        ctx: signedOut(),
        body: { username: TEST_SUPER_ADMIN.username, password: TEST_SUPER_ADMIN.password },
      });

      expect(login.status).toBe(401);
      expect(admin.status).toBe(200);
    } finally {
      await strict.stop();
    }
  });
});
