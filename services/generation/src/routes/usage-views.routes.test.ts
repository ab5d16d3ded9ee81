import type { BudgetStatus, MyUsage, UsageOverview } from '@aict/contracts';
import { checkAnswer, superAdmin, type Caller } from '@aict/service-kit/testing';
import { startHarness, type Harness, type Workspace } from '../test-support/harness';

// The light reads of issue 14: the shell's budget banner, a member's own month on /stats and
// the super admin's side by side view of every workspace.

let t: Harness;
beforeAll(async () => {
  t = await startHarness();
}, 90_000);
afterAll(() => t?.stop(), 60_000);

const DALL_E_IMAGE = 40_000; // micro-USD, the default price of a 1024x1024 standard image

const imagePrompt = (ws: Workspace) =>
  t.newPrompt(ws, { contentType: 'image', model: 'dall-e-3', template: 'A poster of {subject}' });

async function generate(ws: Workspace, promptId: string, as: Caller) {
  const res = await t.call('POST', '/api/generate', {
    as,
    body: { promptId, inputs: { subject: 'tulips' }, workspaceId: ws.id },
  });
  expect(res.status).toBe(200);
}

async function setBudget(ws: Workspace, micros: number | null) {
  const res = await t.call('PUT', `/api/usage/limits/budget?workspaceId=${ws.id}`, {
    as: superAdmin(),
    body: { monthlyBudgetMicros: micros },
  });
  expect(res.status).toBe(200);
}

async function read<T>(url: string, as: Caller): Promise<T> {
  const res = await t.call('GET', url, { as });
  expect(res.status).toBe(200);
  return checkAnswer('GET', url, res) as T;
}

describe('GET /api/usage/budget-status', () => {
  const statusOf = (ws: Workspace, as: Caller = ws.admin) =>
    read<BudgetStatus>(`/api/usage/budget-status?workspaceId=${ws.id}`, as);

  it('when the workspace passes 80 % and then 100 % of its budget, then its admin reads the warning and then reached', async () => {
    const ws = await t.newWorkspace();
    const promptId = await imagePrompt(ws);
    expect(await statusOf(ws)).toMatchObject({
      spentMicros: 0,
      monthlyBudgetMicros: null,
      warning: false,
      reached: false,
    });
    await setBudget(ws, 5 * DALL_E_IMAGE);
    for (let i = 0; i < 3; i++) await generate(ws, promptId, ws.user);
    expect(await statusOf(ws)).toMatchObject({
      spentMicros: 3 * DALL_E_IMAGE,
      monthlyBudgetMicros: 5 * DALL_E_IMAGE,
      warning: false,
      reached: false,
    });

    await generate(ws, promptId, ws.user);
    expect(await statusOf(ws)).toMatchObject({ warning: true, reached: false });
    await generate(ws, promptId, ws.user);
    expect(await statusOf(ws, superAdmin())).toMatchObject({
      workspaceId: ws.id,
      spentMicros: 5 * DALL_E_IMAGE,
      warning: true,
      reached: true,
    });
  }, 20_000);

  it('when a member or the admin of another workspace asks, then it is refused', async () => {
    const [ws, other] = await Promise.all([t.newWorkspace(), t.newWorkspace()]);
    const url = `/api/usage/budget-status?workspaceId=${ws.id}`;
    const asMember = await t.call('GET', url, { as: ws.user });
    const asOtherAdmin = await t.call('GET', url, { as: other.admin });
    // a member: forbidden; someone of another workspace: the workspace is not theirs (404)
    expect([asMember.status, asOtherAdmin.status]).toEqual([403, 404]);
  });
});

/** Reads until `generations` has reached `count` (a settled call's tally follows its answer). */
async function settled(read: () => Promise<MyUsage>, count: number): Promise<MyUsage> {
  for (let tries = 0; ; tries++) {
    const usage = await read();
    if (usage.generations >= count || tries >= 50) return usage;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GET /api/usage/me', () => {
  const mineOf = (ws: Workspace, as: Caller) =>
    read<MyUsage>(`/api/usage/me?workspaceId=${ws.id}`, as);

  it('when two users of a workspace generate, then each reads only their own spend, generations and cap', async () => {
    const ws = await t.newWorkspace();
    const promptId = await imagePrompt(ws);
    const capped = await t.call(
      'PUT',
      `/api/usage/limits/users/${ws.user.uid}?workspaceId=${ws.id}`,
      { as: ws.admin, body: { monthlyCapMicros: 10 * DALL_E_IMAGE } },
    );
    expect(capped.status).toBe(200);
    expect(await mineOf(ws, ws.user)).toMatchObject({
      spentMicros: 0,
      generations: 0,
      capMicros: 10 * DALL_E_IMAGE,
    });

    await generate(ws, promptId, ws.user);
    await generate(ws, promptId, ws.user);
    await generate(ws, promptId, ws.admin);

    // A call is counted in the tallies once it has settled (just after the answer).
    const user = await settled(() => mineOf(ws, ws.user), 2);
    expect(user).toEqual({
      workspaceId: ws.id,
      month: new Date().toISOString().slice(0, 7),
      currency: 'USD',
      spentMicros: 2 * DALL_E_IMAGE,
      generations: 2,
      capMicros: 10 * DALL_E_IMAGE,
    });
    // The admin reads their own month too, not the workspace's.
    expect(await settled(() => mineOf(ws, ws.admin), 1)).toMatchObject({
      spentMicros: DALL_E_IMAGE,
      generations: 1,
      capMicros: null,
    });
  }, 20_000);

  it('when a user names a workspace they are not a member of, then it is not found and no figure leaks', async () => {
    const [ws, other] = await Promise.all([t.newWorkspace(), t.newWorkspace()]);
    await generate(ws, await imagePrompt(ws), ws.user);
    const res = await t.call('GET', `/api/usage/me?workspaceId=${ws.id}`, { as: other.user });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(String(DALL_E_IMAGE));
    // Asking for another user by query changes nothing: the answer is the caller's own.
    const mine = await mineOf(ws, ws.admin);
    const withUser = await read<MyUsage>(
      `/api/usage/me?workspaceId=${ws.id}&userId=${ws.user.uid}`,
      ws.admin,
    );
    expect(withUser).toEqual(mine);
    expect(mine.spentMicros).toBe(0);
  }, 20_000);
});

describe('GET /api/usage/workspaces', () => {
  it('when the super admin compares workspaces, then each has its spend, budget and % used, the highest spend first', async () => {
    const [low, high, idle] = await Promise.all([
      t.newWorkspace(),
      t.newWorkspace(),
      t.newWorkspace(),
    ]);
    await setBudget(low, 4 * DALL_E_IMAGE);
    await setBudget(high, 3 * DALL_E_IMAGE);
    await generate(low, await imagePrompt(low), low.user);
    const highPrompt = await imagePrompt(high);
    await generate(high, highPrompt, high.user);
    await generate(high, highPrompt, high.admin);

    const url = `/api/usage/workspaces?ids=${idle.id},${low.id},${high.id}`;
    const overview = await read<UsageOverview>(url, superAdmin());
    expect(overview.workspaces).toEqual([
      {
        workspaceId: high.id,
        spentMicros: 2 * DALL_E_IMAGE,
        monthlyBudgetMicros: 3 * DALL_E_IMAGE,
        usedPercent: 66,
      },
      {
        workspaceId: low.id,
        spentMicros: DALL_E_IMAGE,
        monthlyBudgetMicros: 4 * DALL_E_IMAGE,
        usedPercent: 25,
      },
      { workspaceId: idle.id, spentMicros: 0, monthlyBudgetMicros: null, usedPercent: null },
    ]);
  }, 20_000);

  it('when a workspace admin asks, or the ids are not workspace ids, then it is refused with a clear answer', async () => {
    const ws = await t.newWorkspace();
    const asAdmin = await t.call('GET', `/api/usage/workspaces?ids=${ws.id}`, { as: ws.admin });
    expect(asAdmin.status).toBe(403);
    const bad = await t.call('GET', '/api/usage/workspaces?ids=1,abc', { as: superAdmin() });
    expect(bad.status).toBe(400);
    const missing = await t.call('GET', '/api/usage/workspaces', { as: superAdmin() });
    expect(missing.status).toBe(400);
  });
});

describe('GET /api/usage/export', () => {
  it('when an admin exports the month, then the CSV is streamed (chunked, no length known up front) with every entry', async () => {
    const ws = await t.newWorkspace();
    const promptId = await imagePrompt(ws);
    await generate(ws, promptId, ws.user);
    await generate(ws, promptId, ws.admin);

    const res = await t.call('GET', `/api/usage/export?workspaceId=${ws.id}`, { as: ws.admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const lines = res.text.split('\r\n');
    expect(lines[0]).toMatch(/^id,startedAt,workspaceId,userId,/);
    expect(lines.filter((line) => line.includes(`,${ws.id},`))).toHaveLength(2);
    expect(lines.at(-1)).toBe('');
  });

  it('when a member asks for the export, then it is refused before anything is sent', async () => {
    const ws = await t.newWorkspace();
    const res = await t.call('GET', `/api/usage/export?workspaceId=${ws.id}`, { as: ws.user });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('application/json');
  });
});
