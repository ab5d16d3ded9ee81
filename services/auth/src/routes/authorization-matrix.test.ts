import { generateKeyPairSync } from 'node:crypto';
import {
  ADD_MEMBER_RPC,
  AddMemberRequest,
  CONTEXT_AUDIENCE,
  CONTEXT_ISSUER,
  type User,
} from '@aict/contracts';
import { signContext, type Served } from '@aict/service-kit';
import { signTestContext } from '@aict/service-kit/testing';
import {
  as,
  assignRole,
  buildRegistration,
  newWorkspaceId,
  registerUser,
  signedOut,
  startAuth,
  TEST_SUPER_ADMIN,
  type AuthKit,
  type CallOptions,
} from '../test-support/auth-test-kit';

jest.setTimeout(60_000);

// Every route of the auth service × every kind of caller, with the exact status of each
// cell. "admin of another workspace" is an admin whose current workspace is another one;
// the targets of :id routes are ordinary members of "this" workspace.

const ACTORS = [
  'signed out',
  'user',
  'admin of this workspace',
  'admin of another workspace',
  'super admin',
] as const;
type Actor = (typeof ACTORS)[number];

interface Route {
  name: string;
  /** Builds the request (fresh data per cell). */
  request: () => Promise<{ method: string; path: string } & Omit<CallOptions, 'ctx'>>;
  expected: Record<Actor, number>;
}

let kit: AuthKit;
/** Answers `workspace.add-member` as the workspace service would (a workspace admin's new users join it). */
let workspaceService: Served | undefined;
let thisWs: number;
let otherWs: number;
const actors = {} as Record<Exclude<Actor, 'signed out'>, User>;

beforeAll(async () => {
  kit = await startAuth();
  workspaceService = await kit.workspaceBus.serve(
    ADD_MEMBER_RPC,
    AddMemberRequest,
    async (req) => ({
      membership: req,
      changed: true,
      events: [],
    }),
  );
  thisWs = newWorkspaceId();
  otherWs = newWorkspaceId();
  const [user, admin, otherAdmin] = await Promise.all([
    registerUser(kit),
    registerUser(kit),
    registerUser(kit),
  ]);
  await assignRole(kit, user.user.id, thisWs, 'user');
  await assignRole(kit, admin.user.id, thisWs, 'admin');
  await assignRole(kit, otherAdmin.user.id, otherWs, 'admin');
  const superAdmin = await kit.call<User>('POST', '/api/login', {
    ctx: signedOut(),
    body: { username: TEST_SUPER_ADMIN.username, password: TEST_SUPER_ADMIN.password },
  });
  Object.assign(actors, {
    user: user.user,
    'admin of this workspace': admin.user,
    'admin of another workspace': otherAdmin.user,
    'super admin': superAdmin.body,
  });
}, 60_000);
afterAll(async () => {
  await workspaceService?.close();
  await kit?.stop();
});

function contextOf(actor: Actor): string {
  switch (actor) {
    case 'signed out':
      return signedOut();
    case 'user':
      return as(actors.user.id, { roles: { [thisWs]: 'user' }, ws: thisWs });
    case 'admin of this workspace':
      return as(actors[actor].id, { roles: { [thisWs]: 'admin' }, ws: thisWs });
    case 'admin of another workspace':
      return as(actors[actor].id, { roles: { [otherWs]: 'admin' }, ws: otherWs });
    case 'super admin':
      return as(actors[actor].id, { sa: true, ws: thisWs });
  }
}

/** A fresh ordinary member of this workspace. */
async function member(): Promise<User> {
  const { user } = await registerUser(kit);
  await assignRole(kit, user.id, thisWs, 'user');
  return user;
}

const everyone = (status: number): Record<Actor, number> =>
  Object.fromEntries(ACTORS.map((a) => [a, status])) as Record<Actor, number>;

const ROUTES: Route[] = [
  {
    name: 'GET /api/user',
    request: async () => ({ method: 'GET', path: '/api/user' }),
    expected: { ...everyone(200), 'signed out': 401 },
  },
  {
    name: 'POST /api/login',
    request: async () => {
      const { user, password } = await registerUser(kit);
      return { method: 'POST', path: '/api/login', body: { username: user.username, password } };
    },
    expected: everyone(200),
  },
  {
    name: 'POST /api/register',
    request: async () => ({ method: 'POST', path: '/api/register', body: buildRegistration() }),
    expected: everyone(201),
  },
  {
    name: 'POST /api/logout',
    request: async () => {
      const { token } = await registerUser(kit);
      return { method: 'POST', path: '/api/logout', session: token };
    },
    expected: everyone(204),
  },
  {
    name: 'GET /api/users',
    request: async () => ({ method: 'GET', path: '/api/users' }),
    expected: {
      'signed out': 401,
      user: 403,
      'admin of this workspace': 200,
      'admin of another workspace': 200,
      'super admin': 200,
    },
  },
  {
    name: 'POST /api/users',
    request: async () => ({ method: 'POST', path: '/api/users', body: buildRegistration() }),
    expected: {
      'signed out': 401,
      user: 403,
      'admin of this workspace': 201,
      'admin of another workspace': 201,
      'super admin': 201,
    },
  },
  {
    name: 'PUT /api/users/:id',
    request: async () => {
      const target = await member();
      const { username, email } = buildRegistration();
      return { method: 'PUT', path: `/api/users/${target.id}`, body: { username, email } };
    },
    expected: {
      'signed out': 401,
      user: 403,
      'admin of this workspace': 200,
      'admin of another workspace': 403,
      'super admin': 200,
    },
  },
  {
    name: 'DELETE /api/users/:id',
    request: async () => ({ method: 'DELETE', path: `/api/users/${(await member()).id}` }),
    expected: {
      'signed out': 401,
      user: 403,
      'admin of this workspace': 204,
      'admin of another workspace': 403,
      'super admin': 204,
    },
  },
  {
    name: 'POST /api/users/:id/reset-password',
    request: async () => ({
      method: 'POST',
      path: `/api/users/${(await member()).id}/reset-password`,
      body: { password: 'a new password' },
    }),
    expected: {
      'signed out': 401,
      user: 403,
      'admin of this workspace': 204,
      'admin of another workspace': 403,
      'super admin': 204,
    },
  },
];

describe.each(ROUTES)('$name', (route) => {
  it.each(ACTORS)('when the caller is %s, then the status is as in the matrix', async (actor) => {
    const { method, path, ...options } = await route.request();

    const answer = await kit.call(method, path, { ...options, ctx: contextOf(actor) });

    expect({ actor, status: answer.status }).toEqual({ actor, status: route.expected[actor] });
  });

  it('when the request has no context (the service reached directly), then 401', async () => {
    const { method, path, ...options } = await route.request();

    const answer = await kit.call(method, path, options);

    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'AUTH.UNAUTHENTICATED' });
  });
});

describe('forged contexts', () => {
  const superAdminClaims = () => ({ uid: actors['super admin'].id, sa: true, ws: thisWs });

  it('when the context is signed by another key, then 401', async () => {
    const intruder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = signContext(intruder.privateKey, {
      ...superAdminClaims(),
      roles: {},
      role: 'admin',
      rid: 'r1',
      ip: '127.0.0.1',
    });

    const answer = await kit.call('GET', '/api/users', { ctx: forged });

    expect(answer.status).toBe(401);
  });

  it('when the context has expired, then 401', async () => {
    const expired = signTestContext(superAdminClaims(), -5);

    const answer = await kit.call('GET', '/api/users', { ctx: expired });

    expect(answer.status).toBe(401);
  });

  it('when the context is tampered with, then 401', async () => {
    const [head, payload, signature] = signTestContext({ uid: actors.user.id }).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const raised = Buffer.from(JSON.stringify({ ...claims, sa: true })).toString('base64url');

    const answer = await kit.call('GET', '/api/users', { ctx: `${head}.${raised}.${signature}` });

    expect(answer.status).toBe(401);
  });

  it('when the context is unsigned (alg none), then 401', async () => {
    const none = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(
        JSON.stringify({
          ...superAdminClaims(),
          roles: {},
          role: 'admin',
          rid: 'r1',
          ip: '127.0.0.1',
          iss: CONTEXT_ISSUER,
          aud: CONTEXT_AUDIENCE,
          exp: Math.floor(Date.now() / 1000) + 60,
        }),
      ).toString('base64url'),
      '',
    ].join('.');

    const answer = await kit.call('GET', '/api/users', { ctx: none });

    expect(answer.status).toBe(401);
  });
});
