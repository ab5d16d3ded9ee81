import {
  SYNC_SSO_MEMBERSHIPS_RPC,
  SyncSsoMembershipsReply,
  UserMemberships,
  USER_MEMBERSHIPS_RPC,
  type Workspace,
} from '@aict/contracts';
import {
  newUserId,
  startHarness,
  superAdmin,
  uniqueName,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(30_000);

let t: Harness;
const sa = superAdmin();

beforeAll(async () => {
  t = await startHarness();
}, 90_000);
afterAll(() => t?.stop(), 60_000);

async function createWorkspace(): Promise<Workspace> {
  const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name: uniqueName() } });
  expect(res.status).toBe(201);
  return res.body;
}

async function sync(userId: string, grants: { workspaceName: string; role: 'admin' | 'user' }[]) {
  return SyncSsoMembershipsReply.parse(
    await t.authBus.request(SYNC_SSO_MEMBERSHIPS_RPC, { userId, grants }),
  );
}

async function membershipsOf(userId: string) {
  const reply = UserMemberships.parse(await t.authBus.request(USER_MEMBERSHIPS_RPC, { userId }));
  return [...reply.memberships].sort((a, b) => a.workspaceId - b.workspaceId);
}

describe('workspace.sync-sso-memberships (single sign-on)', () => {
  it('when the claim names workspaces (any case), then the user becomes a member of each with its role', async () => {
    const [first, second] = [await createWorkspace(), await createWorkspace()];
    const userId = newUserId();

    const reply = await sync(userId, [
      { workspaceName: first.name.toUpperCase(), role: 'admin' },
      { workspaceName: second.name, role: 'user' },
      { workspaceName: 'no-such-workspace-anywhere', role: 'user' },
    ]);

    expect(await membershipsOf(userId)).toEqual([
      { workspaceId: first.id, role: 'admin' },
      { workspaceId: second.id, role: 'user' },
    ]);
    expect(reply.unknown).toEqual(['no-such-workspace-anywhere']);
    expect(reply.events).toHaveLength(2);
  });

  it('when a group is no longer in the claim, then that membership is removed and the others stay', async () => {
    const [kept, dropped] = [await createWorkspace(), await createWorkspace()];
    const userId = newUserId();
    await sync(userId, [
      { workspaceName: kept.name, role: 'user' },
      { workspaceName: dropped.name, role: 'user' },
    ]);

    const reply = await sync(userId, [{ workspaceName: kept.name, role: 'user' }]);

    expect(await membershipsOf(userId)).toEqual([{ workspaceId: kept.id, role: 'user' }]);
    expect(reply.events).toEqual([
      expect.objectContaining({
        type: 'membership.changed',
        data: { workspaceId: dropped.id, userId, role: null },
      }),
    ]);
  });

  it('when the claim drops the last admin of a workspace, then the admin stays and is reported', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    await sync(userId, [{ workspaceName: workspace.name, role: 'admin' }]);

    const reply = await sync(userId, []);

    expect(reply.kept).toEqual([workspace.id]);
    expect(await membershipsOf(userId)).toEqual([{ workspaceId: workspace.id, role: 'admin' }]);
  });
});
