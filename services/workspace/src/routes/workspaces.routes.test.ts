import { Workspace } from '@aict/contracts';
import { STALE_CLAIM_MS } from '../domain/claim-workspace-name';
import {
  identityEventsOf,
  member,
  newUserId,
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

async function createWorkspace(body: { name?: string; description?: string } = {}) {
  const res = await t.call('POST', '/api/workspaces', {
    as: sa,
    body: { name: uniqueName(), ...body },
  });
  expect(res.status).toBe(201);
  return Workspace.parse(res.body);
}

describe('POST /api/workspaces', () => {
  it('when a super admin creates a workspace, then it gets a new integer id, the slug rule and an event', async () => {
    const name = `  Acme   Marketing ${Date.now()} `;

    const res = await t.call('POST', '/api/workspaces', {
      as: sa,
      body: { name, description: 'Our team' },
    });

    expect(res.status).toBe(201);
    const workspace = Workspace.parse(res.body);
    expect(workspace.id).toBeGreaterThan(1);
    expect(workspace.name).toBe(name.trim());
    expect(workspace.slug).toBe(`acme-marketing-${name.trim().split(' ').pop()}`);
    expect(workspace.description).toBe('Our team');
    const event = await t.waitForEvent(
      (e) =>
        e.type === 'workspace.created' &&
        (e.data as { workspaceId: number }).workspaceId === workspace.id,
    );
    expect(event.data).toEqual({
      workspaceId: workspace.id,
      name: workspace.name,
      slug: workspace.slug,
      description: 'Our team',
    });
  });

  it('when two workspaces are created, then their ids are different integers', async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();

    expect(Number.isInteger(a.id) && Number.isInteger(b.id)).toBe(true);
    expect(a.id).not.toBe(b.id);
  });

  it('when the name is blank, then it answers 400 with the SPEC wording', async () => {
    const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name: '   ' } });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION.FAILED', message: 'Name is required' });
  });

  it('when the name is taken (in another case), then it answers 409 WORKSPACE.NAME_TAKEN', async () => {
    const first = await createWorkspace();

    const res = await t.call('POST', '/api/workspaces', {
      as: sa,
      body: { name: first.name.toUpperCase() },
    });

    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'WORKSPACE.NAME_TAKEN' });
  });

  it('when 5 creates of one name run at once, then exactly one gets 201 and the others 409', async () => {
    const name = uniqueName('Race');

    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.call('POST', '/api/workspaces', { as: sa, body: { name } }),
      ),
    );

    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const all = await t.call('GET', '/api/workspaces', { as: sa });
    expect(all.body.filter((w: Workspace) => w.name === name)).toHaveLength(1);
  });

  it('when a name claim was left behind by a crash long ago, then the name can be used again', async () => {
    const name = uniqueName('Orphan');
    const key = name.toLowerCase();
    await t.db.collection('workspace_names').insertOne({
      _id: key,
      workspaceId: 999_999,
      claimedAt: new Date(Date.now() - STALE_CLAIM_MS - 1000),
    } as never);

    const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name } });

    expect(res.status).toBe(201);
    const claim = await t.db.collection('workspace_names').findOne({ _id: key } as never);
    expect(claim?.workspaceId).toBe(res.body.id);
  });

  it('when a name claim is fresh (a create in progress), then the name is taken', async () => {
    const name = uniqueName('InFlight');
    await t.db.collection('workspace_names').insertOne({
      _id: name.toLowerCase(),
      workspaceId: 999_998,
      claimedAt: new Date(),
    } as never);

    const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name } });

    expect(res.status).toBe(409);
  });
});

describe('GET /api/workspaces and /api/user/workspaces', () => {
  it('when a super admin lists workspaces, then every workspace is there in id order', async () => {
    const created = await createWorkspace();

    const res = await t.call('GET', '/api/workspaces', { as: sa });

    expect(res.status).toBe(200);
    const ids = res.body.map((w: Workspace) => w.id);
    expect(ids).toContain(1);
    expect(ids).toContain(created.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('when a user lists their workspaces, then they get exactly the ones they belong to', async () => {
    const mine = await createWorkspace({ description: 'mine' });
    await createWorkspace(); // not theirs
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${mine.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });

    const res = await t.call('GET', '/api/user/workspaces', {
      as: member({ [mine.id]: 'user' }, { uid: userId }),
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual([Workspace.parse({ ...mine, updatedAt: res.body[0].updatedAt })]);
  });

  it('when a user belongs to no workspace, then the list is empty', async () => {
    const res = await t.call('GET', '/api/user/workspaces', { as: member({}) });

    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe('PATCH /api/workspaces/:id', () => {
  it('when a workspace is renamed, then the slug follows, the old name is free and an event says so', async () => {
    const workspace = await createWorkspace();
    const newName = uniqueName('Renamed Team');

    const res = await t.call('PATCH', `/api/workspaces/${workspace.id}`, {
      as: sa,
      body: { name: newName },
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: workspace.id,
      name: newName,
      slug: newName.toLowerCase().replace(/\s+/g, '-'),
    });
    await t.waitForEvent(
      (e) => e.type === 'workspace.updated' && (e.data as { name: string }).name === newName,
    );
    const reuse = await t.call('POST', '/api/workspaces', {
      as: sa,
      body: { name: workspace.name },
    });
    expect(reuse.status).toBe(201);
  });

  it("when a workspace is renamed to another workspace's name, then 409 and nothing changes", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();

    const res = await t.call('PATCH', `/api/workspaces/${b.id}`, {
      as: sa,
      body: { name: a.name },
    });

    expect(res.status).toBe(409);
    const list = await t.call('GET', '/api/workspaces', { as: sa });
    expect(list.body.find((w: Workspace) => w.id === b.id).name).toBe(b.name);
  });

  it('when only the case of the name changes, then it is accepted', async () => {
    const workspace = await createWorkspace();

    const res = await t.call('PATCH', `/api/workspaces/${workspace.id}`, {
      as: sa,
      body: { name: workspace.name.toUpperCase() },
    });

    expect(res.status).toBe(200);
    expect(res.body.name).toBe(workspace.name.toUpperCase());
  });

  it('when the description is set to an empty string, then it is removed', async () => {
    const workspace = await createWorkspace({ description: 'to go' });

    const res = await t.call('PATCH', `/api/workspaces/${workspace.id}`, {
      as: sa,
      body: { description: '' },
    });

    expect(res.status).toBe(200);
    expect(res.body.description).toBeUndefined();
  });

  it('when the workspace does not exist, then a super admin gets 404', async () => {
    const res = await t.call('PATCH', '/api/workspaces/987654', {
      as: sa,
      body: { name: uniqueName() },
    });

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'WORKSPACE.NOT_FOUND' });
  });

  it('when the id is not a positive integer, then it answers 400', async () => {
    const res = await t.call('PATCH', '/api/workspaces/abc', { as: sa, body: { name: 'x' } });

    expect(res.status).toBe(400);
  });
});

describe('DELETE /api/workspaces/:id', () => {
  it('when workspace 1 is deleted, then it answers 400 "Cannot Delete Default Workspace" and it stays', async () => {
    const res = await t.call('DELETE', '/api/workspaces/1', { as: sa });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'WORKSPACE.DEFAULT_NOT_DELETABLE',
      message: 'Cannot Delete Default Workspace',
    });
    const list = await t.call('GET', '/api/workspaces', { as: sa });
    expect(list.body.some((w: Workspace) => w.id === 1)).toBe(true);
  });

  it('when a workspace is deleted, then it is gone, its memberships and settings go, and the gateway is told', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'admin' },
    });
    await t.call('PUT', `/api/workspaces/${workspace.id}/settings/openai_api_key`, {
      as: sa,
      body: { value: 'sk-to-be-deleted-1234' },
    });

    const res = await t.call('DELETE', `/api/workspaces/${workspace.id}`, { as: sa });

    expect(res.status).toBe(204);
    expect(identityEventsOf(res.headers)).toEqual([
      expect.objectContaining({ type: 'workspace.deleted', data: { workspaceId: workspace.id } }),
    ]);
    await t.waitForEvent(
      (e) =>
        e.type === 'workspace.deleted' &&
        (e.data as { workspaceId: number }).workspaceId === workspace.id,
    );
    const list = await t.call('GET', '/api/workspaces', { as: sa });
    expect(list.body.some((w: Workspace) => w.id === workspace.id)).toBe(false);
    expect(await t.db.collection('memberships').countDocuments({ workspaceId: workspace.id })).toBe(
      0,
    );
    expect(await t.db.collection('settings').countDocuments({ workspaceId: workspace.id })).toBe(0);
    const mine = await t.call('GET', '/api/user/workspaces', {
      as: member({ [workspace.id]: 'admin' }, { uid: userId }),
    });
    expect(mine.body).toEqual([]);
    const again = await t.call('DELETE', `/api/workspaces/${workspace.id}`, { as: sa });
    expect(again.status).toBe(404);
  });

  it('when a workspace is deleted, then its name can be used again', async () => {
    const workspace = await createWorkspace();
    await t.call('DELETE', `/api/workspaces/${workspace.id}`, { as: sa });

    const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name: workspace.name } });

    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(workspace.id);
  });

  it('when the process stopped right after marking a workspace deleted, then its workspace.deleted event finishes the clean-up', async () => {
    const workspace = await createWorkspace();
    const userId = newUserId();
    await t.call('POST', `/api/workspaces/${workspace.id}/users`, {
      as: sa,
      body: { userId, role: 'user' },
    });
    await t.settled('workspaces', workspace.id);
    // Simulate the crash: the tombstone and its event are written, nothing else happened.
    await t.db.collection('workspaces').updateOne({ _id: workspace.id } as never, {
      $set: { _deletedAt: new Date() },
      $push: {
        _outbox: {
          id: crypto.randomUUID(),
          type: 'workspace.deleted',
          version: 1,
          occurredAt: new Date(Date.now() - 5000).toISOString(),
          correlationId: 'crash-test',
          causationId: null,
          data: { workspaceId: workspace.id },
        },
      } as never,
    });

    // The outbox sweep publishes it; the service's own consumer purges what is left (the
    // name claim is released last).
    await waitFor(
      async () =>
        (await t.db.collection('workspace_names').countDocuments({ workspaceId: workspace.id })) ===
        0,
      'the clean-up of the deleted workspace',
      15_000,
    );
    expect(await t.db.collection('memberships').countDocuments({ workspaceId: workspace.id })).toBe(
      0,
    );
    const index = await t.db.collection('user_workspaces').findOne({ _id: userId } as never);
    expect(index?.ws?.[String(workspace.id)]).toBeUndefined();
  });
});
