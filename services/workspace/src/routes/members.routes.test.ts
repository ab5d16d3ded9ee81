import { randomUUID } from 'node:crypto';
import {
  ADD_MEMBER_RPC,
  AddMemberReply,
  MEMBERSHIPS_SNAPSHOT_RPC,
  MembershipsSnapshot,
  USER_MEMBERSHIPS_RPC,
  UserMemberships,
  UserWorkspacesResponse,
  Workspace,
} from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { recordScansOnMiss } from '@aict/service-kit/testing';
import {
  identityEventsOf,
  member,
  newUserId,
  sleep,
  startHarness,
  superAdmin,
  uniqueName,
  waitFor,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(30_000);

let t: Harness;
const sa = superAdmin();

beforeAll(async () => {
  t = await startHarness();
});
afterAll(() => t.stop());

async function createWorkspace(): Promise<Workspace> {
  const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name: uniqueName() } });
  expect(res.status).toBe(201);
  return res.body;
}

const membershipEvent =
  (workspaceId: number, userId: string, role: string | null) => (e: Envelope) =>
    e.type === 'membership.changed' &&
    JSON.stringify(e.data) === JSON.stringify({ workspaceId, userId, role });

async function myWorkspaceIds(userId: string): Promise<number[]> {
  const res = await t.call('GET', '/api/user/workspaces', { as: member({}, { uid: userId }) });
  expect(res.status).toBe(200);
  return res.body.map((w: Workspace) => w.id);
}

describe('POST /api/workspaces/:workspaceId/users', () => {
  it('when a super admin adds a user, then 201, membership.changed is published and the gateway is told', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();

    const res = await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'admin' },
    });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ workspaceId: workspace.id, userId, role: 'admin' });
    const [headerEvent] = identityEventsOf(res.headers);
    expect(headerEvent).toMatchObject({
      type: 'membership.changed',
      data: { workspaceId: workspace.id, userId, role: 'admin' },
    });
    const published = await t.waitForEvent(membershipEvent(workspace.id, userId, 'admin'));
    expect(published.id).toBe(headerEvent!.id);
    expect(await myWorkspaceIds(userId)).toEqual([workspace.id]);
  });

  it('when an admin of the workspace adds a member of another workspace they administer, then the user lands in that workspace', async () => {
    const [workspace, other] = [await createWorkspace(), await createWorkspace()];
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${other.id}/users`, { as: sa, body: { userId } });

    const res = await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: member({ [workspace.id]: 'admin', [other.id]: 'admin' }),
      body: { userId },
    });

    expect(res.status).toBe(201);
    expect(res.body.role).toBe('user');
    expect((await myWorkspaceIds(userId)).sort()).toEqual([workspace.id, other.id].sort());
  });

  it('when a workspace admin adds a member of a workspace they do not administer, then 403 and nothing changes', async () => {
    const [workspace, foreign] = [await createWorkspace(), await createWorkspace()];
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${foreign.id}/users`, { as: sa, body: { userId } });

    const res = await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: member({ [workspace.id]: 'admin' }),
      body: { userId },
    });

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'MEMBERSHIP.USER_NOT_MANAGEABLE',
      message: 'You can only add users who belong to workspaces you administer.',
    });
    expect(await myWorkspaceIds(userId)).toEqual([foreign.id]);
  });

  it('when a workspace admin adds a user who is in no workspace, then 403 (only a super admin adds them)', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();

    const res = await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: member({ [workspace.id]: 'admin' }),
      body: { userId },
    });

    expect(res.status).toBe(403);
    expect(await myWorkspaceIds(userId)).toEqual([]);
  });

  it('when the user is already a member with that role, then 200 and nothing is published', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });
    await t.waitForEvent(membershipEvent(workspace.id, userId, 'user'));

    const res = await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });

    expect(res.status).toBe(200);
    expect(identityEventsOf(res.headers)).toEqual([]);
    await sleep(300);
    expect(t.events.filter(membershipEvent(workspace.id, userId, 'user'))).toHaveLength(1);
  });

  it('when the role is not admin or user, then 400', async () => {
    const workspace = await createWorkspace();

    const res = await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId: newUserId(), role: 'owner' },
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Role must be one of: admin, user');
  });

  it('when the workspace does not exist, then 404', async () => {
    const res = await t.call('POST', '/api/workspaces/876543/users', {
      as: sa,
      body: { userId: newUserId(), role: 'user' },
    });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('WORKSPACE.NOT_FOUND');
  });
});

describe('PATCH and DELETE /api/workspaces/:workspaceId/users/:userId', () => {
  it('when a role is changed, then 200, an event and the header carry the new role', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });

    const res = await t.call('PATCH', `/api/workspaces/${workspace.id}/users/${userId}`, {
      as: member({ [workspace.id]: 'admin' }),
      body: { role: 'admin' },
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workspaceId: workspace.id, userId, role: 'admin' });
    expect(identityEventsOf(res.headers)[0]?.data).toEqual({
      workspaceId: workspace.id,
      userId,
      role: 'admin',
    });
    await t.waitForEvent(membershipEvent(workspace.id, userId, 'admin'));
    const items = await t.call('GET', `/api/users/${userId}/workspaces`, { as: sa });
    expect(items.body).toEqual([
      { workspaceId: workspace.id, userId, role: 'admin', workspaceName: workspace.name },
    ]);
  });

  it('when the user is not a member, then changing or removing answers 404 MEMBERSHIP.NOT_FOUND', async () => {
    const workspace = await createWorkspace();
    const path = `/api/workspaces/${workspace.id}/users/${newUserId()}`;

    const patch = await t.call('PATCH', path, { as: sa, body: { role: 'admin' } });
    const remove = await t.call('DELETE', path, { as: sa });

    expect(patch.status).toBe(404);
    expect(patch.body.code).toBe('MEMBERSHIP.NOT_FOUND');
    expect(remove.status).toBe(404);
  });

  it('when a member is removed, then 204, role null is published and the workspace leaves their list', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });

    const res = await t.call('DELETE', `/api/workspaces/${workspace.id}/users/${userId}`, {
      as: member({ [workspace.id]: 'admin' }),
    });

    expect(res.status).toBe(204);
    expect(identityEventsOf(res.headers)[0]?.data).toEqual({
      workspaceId: workspace.id,
      userId,
      role: null,
    });
    await t.waitForEvent(membershipEvent(workspace.id, userId, null));
    expect(await myWorkspaceIds(userId)).toEqual([]);
  });

  it('when a removed member is added back, then the workspace is in their list again', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    const add = () =>
      t.call('POST', `/api/workspaces/${workspace.id}/users`, {
        as: sa,
        body: { userId, role: 'user' },
      });
    await add();
    await t.call('DELETE', `/api/workspaces/${workspace.id}/users/${userId}`, { as: sa });

    const res = await add();

    expect(res.status).toBe(201);
    expect(await myWorkspaceIds(userId)).toEqual([workspace.id]);
  });

  it('when many role changes race, then every change is published and the per-user list agrees with the last', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });

    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.call('PATCH', `/api/workspaces/${workspace.id}/users/${userId}`, {
          as: sa,
          body: { role: i % 2 ? 'admin' : 'user' },
        }),
      ),
    );

    const source = await t.db
      .collection('memberships')
      .findOne({ _id: `${workspace.id}:${userId}` } as never);
    const index = await t.db.collection('user_workspaces').findOne({ _id: userId } as never);
    expect(index?.ws[String(workspace.id)]).toEqual({ role: source?.role, rev: source?.rev });
    const announced = responses.flatMap((r) => identityEventsOf(r.headers));
    expect(announced.length).toBe(source?.rev - 1);
    for (const event of announced)
      await t.waitForEvent((e) => e.id === event.id, `event ${event.id}`);
  });

  it('when a user is added to several workspaces at once, then every one is in their list', async () => {
    const workspaces = await Promise.all(Array.from({ length: 5 }, () => createWorkspace()));
    const userId = newUserId();

    const results = await Promise.all(
      workspaces.map((w) =>
        t.call('POST', `/api/workspaces/${w.id}/users`, { as: sa, body: { userId, role: 'user' } }),
      ),
    );

    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(await myWorkspaceIds(userId)).toEqual(workspaces.map((w) => w.id).sort((a, b) => a - b));
  });
});

describe('GET /api/users/:id/workspaces', () => {
  it('when a super admin asks, then every assignment of the user is listed with workspace names', async () => {
    const [a, b] = [await createWorkspace(), await createWorkspace()];
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${a.id}/users`, {
      as: sa,
      body: { userId, role: 'admin' },
    });
    await t.call('POST', `/api/workspaces/${b.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });

    const res = await t.call('GET', `/api/users/${userId}/workspaces`, { as: sa });

    expect(res.status).toBe(200);
    expect(UserWorkspacesResponse.parse(res.body)).toEqual([
      { workspaceId: a.id, userId, role: 'admin', workspaceName: a.name },
      { workspaceId: b.id, userId, role: 'user', workspaceName: b.name },
    ]);
  });

  it('when a workspace admin asks, then only the current workspace assignment is listed', async () => {
    const [a, b] = [await createWorkspace(), await createWorkspace()];
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${a.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });
    await t.call('POST', `/api/workspaces/${b.id}/users`, {
      as: sa,
      body: { userId, role: 'admin' },
    });

    const res = await t.call('GET', `/api/users/${userId}/workspaces`, {
      as: member({ [a.id]: 'admin', [b.id]: 'user' }, { ws: a.id }),
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ workspaceId: a.id, userId, role: 'user', workspaceName: a.name }]);
  });
});

describe('user.deleted', () => {
  it('when the auth service deletes a user, then their memberships go, each announced; twice is harmless', async () => {
    const [a, b] = [await createWorkspace(), await createWorkspace()];
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${a.id}/users`, {
      as: sa,
      body: { userId, role: 'admin' },
    });
    await t.call('POST', `/api/workspaces/${b.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });

    const event = await t.authBus.publish('user.deleted', { userId });
    await t.waitForEvent(membershipEvent(a.id, userId, null));
    await t.waitForEvent(membershipEvent(b.id, userId, null));
    // The same event again (a redelivery), then another deletion event for the same user.
    await t.authBus.publish('user.deleted', { userId }, { id: event.id });
    await t.authBus.publish('user.deleted', { userId });
    await sleep(500);

    expect(await myWorkspaceIds(userId)).toEqual([]);
    expect(t.events.filter(membershipEvent(a.id, userId, null))).toHaveLength(1);
    const snapshot = MembershipsSnapshot.parse(
      await t.authBus.request(MEMBERSHIPS_SNAPSHOT_RPC, {}),
    );
    expect(snapshot.memberships.some((m) => m.userId === userId)).toBe(false);
    await waitFor(
      async () => (await t.db.collection('memberships').countDocuments({ userId })) === 0,
      'the tombstones to be removed',
    );
  });

  it('when a deleted user is added to a workspace, then 404 USER.NOT_FOUND', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    await t.authBus.publish('user.deleted', { userId });
    await waitFor(
      () => t.db.collection('deleted_users').findOne({ _id: userId } as never),
      'the deletion',
    );

    const res = await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('USER.NOT_FOUND');
  });
});

describe('the per-user index', () => {
  it('when the process stopped after a membership write and before the index, then the published event repairs the index', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    const now = new Date();
    // The membership and its event, written as the service does, and nothing after it.
    await t.db.collection('memberships').insertOne({
      _id: `${workspace.id}:${userId}`,
      workspaceId: workspace.id,
      userId,
      role: 'admin',
      rev: 1,
      createdAt: now,
      updatedAt: now,
      _outbox: [
        {
          id: randomUUID(),
          type: 'membership.changed',
          version: 1,
          occurredAt: new Date(Date.now() - 5000).toISOString(),
          correlationId: 'crash-test',
          causationId: null,
          data: { workspaceId: workspace.id, userId, role: 'admin' },
        },
      ],
    } as never);

    await waitFor(
      async () => (await myWorkspaceIds(userId)).includes(workspace.id),
      'the index repair',
      15_000,
    );
    const index = await t.db.collection('user_workspaces').findOne({ _id: userId } as never);
    expect(index?.ws[String(workspace.id)]).toEqual({ role: 'admin', rev: 1 });
  });

  it('when a member is added, changed and their events arrive, then no read or write by id addresses what is not there (on FerretDB that scans the collection)', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    const scans = recordScansOnMiss(t.service.deps.mongo!.getClient());

    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });
    await t.call('PATCH', `/api/workspaces/${workspace.id}/users/${userId}`, {
      as: sa,
      body: { role: 'admin' },
    });
    // The service's own consumer applies each change's event to the index a second time.
    await t.waitForEvent(membershipEvent(workspace.id, userId, 'admin'));
    await t.settled('memberships', `${workspace.id}:${userId}`);
    await sleep(500);
    expect(await myWorkspaceIds(userId)).toContain(workspace.id);
    scans.stop();

    expect(scans.misses).toEqual([]);
  });
});

describe('request/reply', () => {
  it('when the gateway asks for the memberships snapshot, then it gets every current membership', async () => {
    const workspace = await createWorkspace();
    const [stays, leaves] = [newUserId(), newUserId()];
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId: stays, role: 'admin' },
    });
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId: leaves, role: 'user' },
    });
    await t.call('DELETE', `/api/workspaces/${workspace.id}/users/${leaves}`, { as: sa });

    const reply = MembershipsSnapshot.parse(await t.authBus.request(MEMBERSHIPS_SNAPSHOT_RPC, {}));

    const ofWorkspace = reply.memberships.filter((m) => m.workspaceId === workspace.id);
    expect(ofWorkspace).toEqual([{ workspaceId: workspace.id, userId: stays, role: 'admin' }]);
  });

  it('when the auth service asks to add a new user to a workspace, then the membership exists and its events come back', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();

    const reply = AddMemberReply.parse(
      await t.authBus.request(ADD_MEMBER_RPC, { workspaceId: workspace.id, userId, role: 'admin' }),
    );

    expect(reply.membership).toEqual({ workspaceId: workspace.id, userId, role: 'admin' });
    expect(reply.changed).toBe(true);
    expect(reply.events[0]).toMatchObject({ type: 'membership.changed' });
    expect(await myWorkspaceIds(userId)).toEqual([workspace.id]);
    await expect(
      t.authBus.request(ADD_MEMBER_RPC, { workspaceId: 999_991, userId, role: 'user' }),
    ).rejects.toMatchObject({ code: 'WORKSPACE.NOT_FOUND', status: 404 });
  });

  it('when the auth service asks for a user’s memberships, then it gets those written a moment ago', async () => {
    const [workspace, left] = [await createWorkspace(), await createWorkspace()];
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${left.id}/users`, { as: sa, body: { userId } });
    await t.call('DELETE', `/api/workspaces/${left.id}/users/${userId}`, { as: sa });
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'admin' },
    });

    const reply = UserMemberships.parse(await t.authBus.request(USER_MEMBERSHIPS_RPC, { userId }));

    expect(reply).toEqual({ memberships: [{ workspaceId: workspace.id, role: 'admin' }] });
  });
});

describe('the last admin of a workspace', () => {
  async function workspaceWithAdmin() {
    const workspace = await createWorkspace();
    const adminId = newUserId();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId: adminId, role: 'admin' },
    });
    const admin = member({ [workspace.id]: 'admin' }, { uid: adminId });
    return { workspace, adminId, admin };
  }

  it('when the only admin sets their own role to user, then 409 with a message and they stay admin', async () => {
    const { workspace, adminId, admin } = await workspaceWithAdmin();

    const res = await t.call('PATCH', `/api/workspaces/${workspace.id}/users/${adminId}`, {
      as: admin,
      body: { role: 'user' },
    });

    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'MEMBERSHIP.LAST_ADMIN',
      message: 'A workspace needs at least one admin. Make another member an admin first.',
    });
    const items = await t.call('GET', `/api/users/${adminId}/workspaces`, { as: sa });
    expect(items.body).toEqual([
      expect.objectContaining({ workspaceId: workspace.id, role: 'admin' }),
    ]);
  });

  it('when the only admin is removed, or set to user through POST, then 409 as well', async () => {
    const { workspace, adminId } = await workspaceWithAdmin();

    const removed = await t.call('DELETE', `/api/workspaces/${workspace.id}/users/${adminId}`, {
      as: sa,
    });
    const demoted = await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId: adminId, role: 'user' },
    });

    expect([removed.status, demoted.status]).toEqual([409, 409]);
  });

  it('when another admin remains, then an admin may step down', async () => {
    const { workspace, adminId, admin } = await workspaceWithAdmin();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId: newUserId(), role: 'admin' },
    });

    const res = await t.call('PATCH', `/api/workspaces/${workspace.id}/users/${adminId}`, {
      as: admin,
      body: { role: 'user' },
    });

    expect(res.status).toBe(200);
  });

  it('when two admins demote each other at once, then one of them stays admin', async () => {
    const { workspace, adminId } = await workspaceWithAdmin();
    const secondId = newUserId();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId: secondId, role: 'admin' },
    });

    const answers = await Promise.all(
      [adminId, secondId].map((userId) =>
        t.call('PATCH', `/api/workspaces/${workspace.id}/users/${userId}`, {
          as: member({ [workspace.id]: 'admin' }),
          body: { role: 'user' },
        }),
      ),
    );

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });
});
