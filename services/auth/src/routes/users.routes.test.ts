import jwt from 'jsonwebtoken';
import {
  ADD_MEMBER_RPC,
  AddMemberRequest,
  USER_MEMBERSHIPS_RPC,
  UserMembershipsRequest,
  type User,
} from '@aict/contracts';
import {
  as,
  assignRole,
  buildRegistration,
  identityEventsOf,
  newWorkspaceId,
  registerUser,
  sessionOf,
  signedOut,
  startAuth,
  TEST_SUPER_ADMIN,
  type AuthKit,
} from '../test-support/auth-test-kit';

jest.setTimeout(30_000);

let kit: AuthKit;
let superAdmin: User;

beforeAll(async () => {
  kit = await startAuth();
  const login = await kit.call<User>('POST', '/api/login', {
    ctx: signedOut(),
    body: { username: TEST_SUPER_ADMIN.username, password: TEST_SUPER_ADMIN.password },
  });
  superAdmin = login.body;
}, 60_000);
afterAll(() => kit?.stop());

const asSuperAdmin = (ws: number | null = null) => as(superAdmin.id, { sa: true, ws });
const asAdminOf = (uid: string, ws: number) => as(uid, { roles: { [ws]: 'admin' }, ws });

/** A workspace with an admin and a member (roles in the read model, from real events). */
async function workspaceWithAdminAndMember() {
  const workspaceId = newWorkspaceId();
  const [admin, member] = await Promise.all([registerUser(kit), registerUser(kit)]);
  await assignRole(kit, admin.user.id, workspaceId, 'admin');
  await assignRole(kit, member.user.id, workspaceId, 'user');
  return { workspaceId, admin: admin.user, member: member.user, memberPassword: member.password };
}

async function login(username: string, password: string) {
  return kit.call<User>('POST', '/api/login', { ctx: signedOut(), body: { username, password } });
}

describe('GET /api/users', () => {
  it('when a super admin lists users, then every user comes with all their workspace chips', async () => {
    const { workspaceId, member } = await workspaceWithAdminAndMember();
    const other = newWorkspaceId();
    await assignRole(kit, member.id, other, 'admin');

    const answer = await kit.call<User[]>('GET', '/api/users', { ctx: asSuperAdmin() });

    expect(answer.status).toBe(200);
    expect(answer.body.find((u) => u.id === member.id)).toEqual({
      ...member,
      workspaceRoles: { [workspaceId]: 'user', [other]: 'admin' },
    });
    expect(answer.body.find((u) => u.id === superAdmin.id)).toMatchObject({ isSuperAdmin: true });
    for (const user of answer.body) {
      expect(Object.keys(user).sort()).toEqual([
        'email',
        'id',
        'isSuperAdmin',
        'username',
        'workspaceRoles',
      ]);
    }
  });

  it('when a workspace admin lists users, then only the users of that workspace with only its chip', async () => {
    const { workspaceId, admin, member } = await workspaceWithAdminAndMember();
    const other = newWorkspaceId();
    await assignRole(kit, member.id, other, 'admin');
    const outsider = await registerUser(kit);
    await assignRole(kit, outsider.user.id, other, 'user');

    const answer = await kit.call<User[]>('GET', '/api/users', {
      ctx: asAdminOf(admin.id, workspaceId),
    });

    expect(answer.status).toBe(200);
    expect(answer.body.map((u) => u.id).sort()).toEqual([admin.id, member.id].sort());
    expect(answer.body.find((u) => u.id === member.id)!.workspaceRoles).toEqual({
      [workspaceId]: 'user',
    });
  });

  it('when someone leaves the workspace, then its admin no longer lists them', async () => {
    const { workspaceId, admin, member } = await workspaceWithAdminAndMember();

    await assignRole(kit, member.id, workspaceId, null);
    const answer = await kit.call<User[]>('GET', '/api/users', {
      ctx: asAdminOf(admin.id, workspaceId),
    });

    expect(answer.body.map((u) => u.id)).toEqual([admin.id]);
  });
});

describe('POST /api/users', () => {
  it('when a super admin creates a user in no workspace, then 201 with the user, user.created carries its id, and it can sign in', async () => {
    const registration = buildRegistration();

    const answer = await kit.call<User>('POST', '/api/users', {
      ctx: asSuperAdmin(),
      body: { ...registration, workspaceId: null, role: 'user' },
    });

    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(String),
      username: registration.username,
      email: registration.email,
      isSuperAdmin: false,
      workspaceRoles: {},
    });
    expect(answer.headers.getSetCookie()).toEqual([]); // the admin stays signed in as themself
    const created = await kit.authEvents.find(
      (e) => e.type === 'user.created' && (e.data as { userId: string }).userId === answer.body.id,
    );
    expect(created.data).toEqual({
      userId: answer.body.id,
      username: registration.username,
      email: registration.email,
      isSuperAdmin: false,
    });
    expect((await login(registration.username, registration.password)).status).toBe(200);
  });

  it('when a workspace admin creates a user and the workspace service cannot add it, then 503, and no account is left behind', async () => {
    const { workspaceId, admin } = await workspaceWithAdminAndMember();
    const registration = buildRegistration();

    const answer = await kit.call('POST', '/api/users', {
      ctx: asAdminOf(admin.id, workspaceId),
      body: { ...registration, workspaceId, role: 'user' },
    });

    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'USER.NOT_CREATED' });
    expect((await login(registration.username, registration.password)).status).toBe(401);
    const again = await kit.call('POST', '/api/users', {
      ctx: asSuperAdmin(),
      body: { ...registration, workspaceId: null },
    });
    expect(again.status).toBe(201); // the name and e-mail are free again
  }, 30_000);

  it('when a workspace admin creates a user without naming a workspace, then it joins their workspace, and they can manage it', async () => {
    const { workspaceId, admin } = await workspaceWithAdminAndMember();
    const served = await kit.workspaceBus.serve(ADD_MEMBER_RPC, AddMemberRequest, async (req) => {
      const event = await kit.workspaceBus.publish('membership.changed', {
        workspaceId: req.workspaceId,
        userId: req.userId,
        role: req.role,
      });
      return { membership: req, changed: true, events: [event] };
    });
    try {
      const answer = await kit.call<User>('POST', '/api/users', {
        ctx: asAdminOf(admin.id, workspaceId),
        body: buildRegistration(),
      });
      const removed = await kit.call('DELETE', `/api/users/${answer.body.id}`, {
        ctx: asAdminOf(admin.id, workspaceId),
      });

      expect(answer.status).toBe(201);
      expect(answer.body.workspaceRoles).toEqual({ [workspaceId]: 'user' });
      expect(removed.status).toBe(204);
    } finally {
      await served.close();
    }
  });

  it('when fields are missing, then 400 with "Missing Fields: Please fill out all required fields."', async () => {
    const empty = await kit.call('POST', '/api/users', { ctx: asSuperAdmin() });
    const noPassword = await kit.call('POST', '/api/users', {
      ctx: asSuperAdmin(),
      body: { username: 'someone', email: 'someone@example.com' },
    });

    for (const answer of [empty, noPassword]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'VALIDATION.FAILED',
        message: 'Missing Fields: Please fill out all required fields.',
      });
    }
  });

  it('when a workspace admin names a workspace they do not administer, then 403', async () => {
    const { workspaceId, admin } = await workspaceWithAdminAndMember();

    const answer = await kit.call('POST', '/api/users', {
      ctx: asAdminOf(admin.id, workspaceId),
      body: { ...buildRegistration(), workspaceId: newWorkspaceId(), role: 'admin' },
    });

    expect(answer.status).toBe(403);
  });
});

describe('PUT /api/users/:id', () => {
  it('when an admin renames a member, then 200, user.updated is published and the old name is free', async () => {
    const { workspaceId, admin, member, memberPassword } = await workspaceWithAdminAndMember();
    const renamed = buildRegistration();

    const answer = await kit.call<User>('PUT', `/api/users/${member.id}`, {
      ctx: asAdminOf(admin.id, workspaceId),
      body: { username: renamed.username, email: renamed.email.toUpperCase() },
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...member,
      username: renamed.username,
      email: renamed.email,
      workspaceRoles: { [workspaceId]: 'user' },
    });
    expect(identityEventsOf(answer)).toEqual([
      expect.objectContaining({
        type: 'user.updated',
        data: {
          userId: member.id,
          username: renamed.username,
          email: renamed.email,
          isSuperAdmin: false,
        },
      }),
    ]);
    expect((await login(renamed.username, memberPassword)).status).toBe(200);
    expect((await login(member.username, memberPassword)).status).toBe(401);
    const reuse = await kit.call('POST', '/api/register', {
      ctx: signedOut(),
      body: buildRegistration({ username: member.username, email: member.email }),
    });
    expect(reuse.status).toBe(201);
  });

  it('when the new username is taken, then 409 and nothing changes', async () => {
    const { member } = await workspaceWithAdminAndMember();
    const { user: taken } = await registerUser(kit);

    const answer = await kit.call('PUT', `/api/users/${member.id}`, {
      ctx: asSuperAdmin(),
      body: { username: taken.username, email: buildRegistration().email },
    });
    const after = await kit.call<User>('GET', '/api/user', { ctx: as(member.id) });

    expect(answer).toMatchObject({ status: 409, body: { code: 'USER.USERNAME_TAKEN' } });
    expect(after.body).toMatchObject({ username: member.username, email: member.email });
  });

  it('when a super admin grants the super-admin flag, then the sessions of that user end', async () => {
    const { member } = await workspaceWithAdminAndMember();

    const answer = await kit.call<User>('PUT', `/api/users/${member.id}`, {
      ctx: asSuperAdmin(),
      body: { username: member.username, email: member.email, isSuperAdmin: true },
    });

    expect(answer.status).toBe(200);
    expect(answer.body.isSuperAdmin).toBe(true);
    expect(identityEventsOf(answer).map((e) => [e.type, e.data])).toEqual([
      [
        'user.updated',
        { userId: member.id, username: member.username, email: member.email, isSuperAdmin: true },
      ],
      ['user.sessions-revoked', { userId: member.id, tokenVersion: 1 }],
    ]);
  });

  it('when a super admin changes their own flag, then 400; a workspace admin trying it, 403', async () => {
    const { workspaceId, admin, member } = await workspaceWithAdminAndMember();

    const own = await kit.call('PUT', `/api/users/${superAdmin.id}`, {
      ctx: asSuperAdmin(),
      body: { username: superAdmin.username, email: superAdmin.email, isSuperAdmin: false },
    });
    const byAdmin = await kit.call('PUT', `/api/users/${member.id}`, {
      ctx: asAdminOf(admin.id, workspaceId),
      body: { username: member.username, email: member.email, isSuperAdmin: true },
    });

    expect(own).toMatchObject({
      status: 400,
      body: { code: 'USER.CANNOT_CHANGE_OWN_SUPER_ADMIN' },
    });
    expect(byAdmin.status).toBe(403);
  });

  it('when a workspace admin edits a member of a workspace they do not administer too, or a super admin, then 403', async () => {
    const { workspaceId, admin, member } = await workspaceWithAdminAndMember();
    await assignRole(kit, member.id, newWorkspaceId(), 'user');
    await assignRole(kit, superAdmin.id, workspaceId, 'user');

    const twoWorkspaces = await kit.call('PUT', `/api/users/${member.id}`, {
      ctx: asAdminOf(admin.id, workspaceId),
      body: { username: member.username, email: member.email },
    });
    const ofSuperAdmin = await kit.call('PUT', `/api/users/${superAdmin.id}`, {
      ctx: asAdminOf(admin.id, workspaceId),
      body: { username: superAdmin.username, email: superAdmin.email },
    });

    expect(twoWorkspaces.status).toBe(403);
    expect(ofSuperAdmin.status).toBe(403);
  });
});

describe('POST /api/users/:id/reset-password', () => {
  it('when an admin resets a password, then 204, the new one works, and the sessions end', async () => {
    const { workspaceId, admin, member, memberPassword } = await workspaceWithAdminAndMember();

    const answer = await kit.call('POST', `/api/users/${member.id}/reset-password`, {
      ctx: asAdminOf(admin.id, workspaceId),
      body: { password: 'brand new password' },
    });

    expect(answer.status).toBe(204);
    const revoked = { type: 'user.sessions-revoked', data: { userId: member.id, tokenVersion: 1 } };
    expect(identityEventsOf(answer)).toEqual([expect.objectContaining(revoked)]);
    await kit.authEvents.find(
      (e) => e.type === revoked.type && (e.data as { userId: string }).userId === member.id,
    );
    expect((await login(member.username, memberPassword)).status).toBe(401);
    const fresh = await login(member.username, 'brand new password');
    expect(fresh.status).toBe(200);
    expect(jwt.decode(sessionOf(fresh))).toMatchObject({ tv: 1 });
  });

  it('when five resets of one user race, then each ends the sessions once more (token version 5)', async () => {
    const { member } = await workspaceWithAdminAndMember();

    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        kit.call('POST', `/api/users/${member.id}/reset-password`, {
          ctx: asSuperAdmin(),
          body: { password: `password number ${i}` },
        }),
      ),
    );

    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 204, 204]);
    const versions = answers.map((a) => identityEventsOf(a)[0]!.data as { tokenVersion: number });
    expect(versions.map((v) => v.tokenVersion).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('when no password is given, then 400 "Missing Password"', async () => {
    const { member } = await workspaceWithAdminAndMember();

    const answer = await kit.call('POST', `/api/users/${member.id}/reset-password`, {
      ctx: asSuperAdmin(),
      body: {},
    });

    expect(answer).toMatchObject({ status: 400, body: { message: 'Missing Password' } });
  });
});

describe('DELETE /api/users/:id', () => {
  it('when an admin deletes a member, then 204, user.sessions-revoked and user.deleted are published, and the name is free', async () => {
    const { workspaceId, admin, member, memberPassword } = await workspaceWithAdminAndMember();

    const answer = await kit.call('DELETE', `/api/users/${member.id}`, {
      ctx: asAdminOf(admin.id, workspaceId),
    });

    expect(answer.status).toBe(204);
    expect(identityEventsOf(answer).map((e) => [e.type, e.data])).toEqual([
      ['user.sessions-revoked', { userId: member.id, tokenVersion: 1 }],
      ['user.deleted', { userId: member.id }],
    ]);
    await kit.authEvents.find(
      (e) => e.type === 'user.deleted' && (e.data as { userId: string }).userId === member.id,
    );
    expect((await kit.call('GET', '/api/user', { ctx: as(member.id) })).status).toBe(401);
    expect((await login(member.username, memberPassword)).status).toBe(401);
    const again = await kit.call('DELETE', `/api/users/${member.id}`, { ctx: asSuperAdmin() });
    expect(again).toMatchObject({ status: 404, body: { code: 'USER.NOT_FOUND' } });
    const reuse = await kit.call('POST', '/api/register', {
      ctx: signedOut(),
      body: buildRegistration({ username: member.username, email: member.email }),
    });
    expect(reuse.status).toBe(201);
  });

  it('when someone deletes themself, then 400 "Cannot Delete Self: You cannot delete your own account."', async () => {
    const answer = await kit.call('DELETE', `/api/users/${superAdmin.id}`, {
      ctx: asSuperAdmin(),
    });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 'USER.CANNOT_DELETE_SELF',
      message: 'Cannot Delete Self: You cannot delete your own account.',
    });
  });
});

describe('creating a user with a workspace', () => {
  it('when the workspace service adds the new user, then 201 with its chip, and the membership event in the header', async () => {
    const workspaceId = newWorkspaceId();
    const served = await kit.workspaceBus.serve(ADD_MEMBER_RPC, AddMemberRequest, async (req) => {
      const event = await kit.workspaceBus.publish('membership.changed', {
        workspaceId: req.workspaceId,
        userId: req.userId,
        role: req.role,
      });
      return { membership: req, changed: true, events: [event] };
    });
    try {
      const answer = await kit.call<User>('POST', '/api/users', {
        ctx: asSuperAdmin(),
        body: { ...buildRegistration(), workspaceId, role: 'admin' },
      });

      expect(answer.status).toBe(201);
      expect(answer.body.workspaceRoles).toEqual({ [workspaceId]: 'admin' });
      expect(identityEventsOf(answer).map((e) => [e.type, e.data])).toEqual([
        ['user.created', expect.objectContaining({ userId: answer.body.id })],
        ['membership.changed', { workspaceId, userId: answer.body.id, role: 'admin' }],
      ]);
      const roles = await kit.call<User>('GET', '/api/user', { ctx: as(answer.body.id) });
      expect(roles.body.workspaceRoles).toEqual({ [workspaceId]: 'admin' });
    } finally {
      await served.close();
    }
  });
});

describe('user administration reads its own writes', () => {
  it('when a user joined the admin’s workspace a moment ago (the read model has not heard yet), then the admin may edit them at once', async () => {
    const { workspaceId, admin } = await workspaceWithAdminAndMember();
    const { user: joined } = await registerUser(kit);
    // The workspace service has the membership; its event has not reached this service.
    const served = await kit.workspaceBus.serve(
      USER_MEMBERSHIPS_RPC,
      UserMembershipsRequest,
      async ({ userId }) => ({
        memberships: userId === joined.id ? [{ workspaceId, role: 'user' as const }] : [],
      }),
    );
    try {
      const renamed = buildRegistration();

      const answer = await kit.call<User>('PUT', `/api/users/${joined.id}`, {
        ctx: asAdminOf(admin.id, workspaceId),
        body: { username: renamed.username, email: renamed.email },
      });

      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        username: renamed.username,
        workspaceRoles: { [workspaceId]: 'user' },
      });
    } finally {
      await served.close();
    }
  });

  it('when the workspace service says the user is not in the admin’s workspace, then 403', async () => {
    const { workspaceId, admin } = await workspaceWithAdminAndMember();
    const { user: stranger } = await registerUser(kit);
    const served = await kit.workspaceBus.serve(
      USER_MEMBERSHIPS_RPC,
      UserMembershipsRequest,
      async () => ({ memberships: [{ workspaceId: newWorkspaceId(), role: 'user' as const }] }),
    );
    try {
      const answer = await kit.call('DELETE', `/api/users/${stranger.id}`, {
        ctx: asAdminOf(admin.id, workspaceId),
      });

      expect(answer.status).toBe(403);
    } finally {
      await served.close();
    }
  });
});

describe('malformed user ids', () => {
  const MALFORMED = ['not-a-user', '123', 'a'.repeat(64), '00000000-0000-0000-0000-00000000000g'];

  it.each(MALFORMED)(
    'when a user route is called with id %p, then 400 or 404 on every one',
    async (id) => {
      const calls = [
        kit.call('PUT', `/api/users/${id}`, {
          ctx: asSuperAdmin(),
          body: { username: 'renamed', email: 'renamed@example.com' },
        }),
        kit.call('DELETE', `/api/users/${id}`, { ctx: asSuperAdmin() }),
        kit.call('POST', `/api/users/${id}/reset-password`, {
          ctx: asSuperAdmin(),
          body: { password: 'a new password' },
        }),
      ];

      const statuses = (await Promise.all(calls)).map((answer) => answer.status);

      expect(statuses.filter((status) => status !== 400 && status !== 404)).toEqual([]);
    },
  );
});
