import {
  MEMBERSHIPS_SNAPSHOT_RPC,
  MembershipsSnapshotRequest,
  type Membership,
  type User,
} from '@aict/contracts';
import { createBus, createLogger } from '@aict/service-kit';
import {
  as,
  assignRole,
  createTestVhost,
  newWorkspaceId,
  registerUser,
  startAuth,
  waitFor,
  type AuthKit,
} from '../test-support/auth-test-kit';

jest.setTimeout(30_000);

// The read model is fed by real `membership.changed` / `workspace.deleted` events published
// on the workspace service's exchange, as the workspace service would.

let kit: AuthKit;

beforeAll(async () => {
  kit = await startAuth();
}, 60_000);
afterAll(() => kit?.stop());

async function rolesOf(userId: string) {
  const { body } = await kit.call<User>('GET', '/api/user', { ctx: as(userId) });
  return body.workspaceRoles;
}

const at = (secondsAgo: number) => ({ occurredAt: new Date(Date.now() - secondsAgo * 1000) });

/**
 * Waits until the consumers handled these events: their ids are `done` in the processed
 * store. (Not the broker's queue counts: RabbitMQ refreshes a quorum queue's message count
 * only every few seconds, so "0 messages" read right after a publish is often stale, and
 * under load, with the audit consumer's queue busy too, the handling outlived it.)
 */
async function handled(...events: { id: string }[]) {
  const processed = kit.service.deps.mongo!.collection<{ _id: string; status: string }>(
    'processed_events',
  );
  await waitFor(async () => {
    const docs = await Promise.all(events.map((e) => processed.findOne({ _id: e.id })));
    return docs.every((doc) => doc?.status === 'done');
  }, `${events.length} events handled`);
}

describe('membership read model', () => {
  it('when membership.changed events arrive, then GET /api/user shows the workspace roles', async () => {
    const { user } = await registerUser(kit);
    const [first, second] = [newWorkspaceId(), newWorkspaceId()];

    await kit.workspaceBus.publish('membership.changed', {
      workspaceId: first,
      userId: user.id,
      role: 'admin',
    });
    await kit.workspaceBus.publish('membership.changed', {
      workspaceId: second,
      userId: user.id,
      role: 'user',
    });

    await waitFor(async () => Object.keys(await rolesOf(user.id)).length === 2, 'both roles');
    expect(await rolesOf(user.id)).toEqual({ [first]: 'admin', [second]: 'user' });
  });

  it('when one user joins ten workspaces at once, then all ten roles are kept', async () => {
    const { user } = await registerUser(kit);
    const workspaces = Array.from({ length: 10 }, () => newWorkspaceId());

    const published = await kit.workspaceBus.publishMany(
      workspaces.map((workspaceId) => ({
        type: 'membership.changed',
        data: { workspaceId, userId: user.id, role: 'user' },
      })),
    );
    await handled(...published);

    expect(Object.keys(await rolesOf(user.id)).sort()).toEqual(workspaces.map(String).sort());
  });

  it('when a role changes and then the user leaves, then the roles follow', async () => {
    const { user } = await registerUser(kit);
    const workspaceId = newWorkspaceId();

    await assignRole(kit, user.id, workspaceId, 'user');
    await assignRole(kit, user.id, workspaceId, 'admin');
    expect(await rolesOf(user.id)).toEqual({ [workspaceId]: 'admin' });
    await assignRole(kit, user.id, workspaceId, null);

    expect(await rolesOf(user.id)).toEqual({});
  });

  it('when the same event is delivered twice, then it is applied once', async () => {
    const { user } = await registerUser(kit);
    const workspaceId = newWorkspaceId();
    const granted = kit.workspaceBus.envelope(
      'membership.changed',
      { workspaceId, userId: user.id, role: 'admin' },
      at(10),
    );
    await kit.workspaceBus.publishEnvelopes([granted]);
    await waitFor(async () => (await rolesOf(user.id))[workspaceId] === 'admin', 'the grant');
    const revoked = await kit.workspaceBus.publish('membership.changed', {
      workspaceId,
      userId: user.id,
      role: null,
    });
    await handled(revoked);

    await kit.workspaceBus.publishEnvelopes([granted]); // redelivered
    // A later event on the same queue, handled once the redelivered copy was looked at.
    const later = await kit.workspaceBus.publish('membership.changed', {
      workspaceId: newWorkspaceId(),
      userId: user.id,
      role: 'user',
    });
    await handled(later);

    expect((await rolesOf(user.id))[workspaceId]).toBeUndefined();
    const processed = await kit.service.deps
      .mongo!.collection('processed_events')
      .countDocuments({ _id: granted.id as never });
    expect(processed).toBe(1);
  });

  it('when an older change arrives after a newer one, then the newer one stays', async () => {
    const { user } = await registerUser(kit);
    const workspaceId = newWorkspaceId();

    const newer = await kit.workspaceBus.publish(
      'membership.changed',
      { workspaceId, userId: user.id, role: 'user' },
      at(1),
    );
    const older = await kit.workspaceBus.publish(
      'membership.changed',
      { workspaceId, userId: user.id, role: 'admin' },
      at(60),
    );
    await handled(newer, older);

    expect((await rolesOf(user.id))[workspaceId]).toBe('user');
  });

  it('when a workspace is deleted, then its roles go, and a late membership event does not bring them back', async () => {
    const [{ user: a }, { user: b }] = await Promise.all([registerUser(kit), registerUser(kit)]);
    const [deleted, kept] = [newWorkspaceId(), newWorkspaceId()];
    await assignRole(kit, a.id, deleted, 'admin');
    await assignRole(kit, b.id, deleted, 'user');
    await assignRole(kit, a.id, kept, 'user');

    await kit.workspaceBus.publish('workspace.deleted', { workspaceId: deleted });
    await waitFor(
      async () => (await rolesOf(a.id))[deleted] === undefined,
      'the deleted workspace to go',
    );
    const late = await kit.workspaceBus.publish('membership.changed', {
      workspaceId: deleted,
      userId: b.id,
      role: 'admin',
    });
    await handled(late);

    expect(await rolesOf(a.id)).toEqual({ [kept]: 'user' });
    expect((await rolesOf(b.id))[deleted]).toBeUndefined();
  });
});

describe('repair from the workspace service', () => {
  it('when the auth service starts, then its read model is reconciled with the memberships snapshot', async () => {
    const vhost = await createTestVhost();
    let snapshot: Membership[] = [];
    const workspaceService = await createBus({
      url: vhost.url,
      service: 'workspace',
      logger: createLogger('test', { level: 'silent' }),
    });
    await workspaceService.serve(MEMBERSHIPS_SNAPSHOT_RPC, MembershipsSnapshotRequest, () => ({
      memberships: snapshot,
    }));
    const first = await startAuth({}, vhost);
    const [{ user: a }, { user: b }] = await Promise.all([
      registerUser(first),
      registerUser(first),
    ]);
    const [w1, w2, w3] = [newWorkspaceId(), newWorkspaceId(), newWorkspaceId()];
    await assignRole(first, a.id, w1, 'admin');
    await assignRole(first, b.id, w2, 'user');
    await first.stop({ keepData: true });

    // Meanwhile (events lost): a became a user in w1, b left w2 and joined w3 as admin.
    snapshot = [
      { workspaceId: w1, userId: a.id, role: 'user' },
      { workspaceId: w3, userId: b.id, role: 'admin' },
    ];
    const second = await startAuth({ MONGO_URL: first.env.MONGO_URL }, vhost);
    try {
      const rolesOfUser = async (userId: string) =>
        (await second.call<User>('GET', '/api/user', { ctx: as(userId) })).body.workspaceRoles;

      await waitFor(async () => (await rolesOfUser(b.id))[w3] === 'admin', 'the reconciliation');

      expect(await rolesOfUser(a.id)).toEqual({ [w1]: 'user' });
      expect(await rolesOfUser(b.id)).toEqual({ [w3]: 'admin' });
    } finally {
      await workspaceService.close();
      await second.stop();
    }
  });
});
