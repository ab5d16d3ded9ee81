import { randomUUID } from 'node:crypto';
import { EVENTS } from '@aict/contracts';
import { superAdmin } from '@aict/service-kit/testing';
import type { Envelope, Subscription } from '@aict/service-kit';
import { startHarness, waitFor, type Harness } from '../test-support/harness';

// The audit log (issue 17): budgets, user caps, rate limits and prices are administrative
// acts; each change publishes an `audit.recorded` event (the auth service appends it to
// the log) with the actor and the value before and after. A refused edit records nothing.

jest.setTimeout(60_000);

type Act = {
  actorId: string | null;
  workspaceId: number | null;
  action: string;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

let t: Harness;
let listening: Subscription;
const audits: Envelope<Act>[] = [];

beforeAll(async () => {
  t = await startHarness();
  const bus = t.generation.deps.bus!;
  listening = await bus.subscribe({
    queue: `test-audit-${randomUUID().slice(0, 8)}`,
    exchange: bus.exchange,
    bindings: ['audit.recorded'],
    schemas: { 'audit.recorded': EVENTS['audit.recorded'] },
    handler: (event) => void audits.push(event as Envelope<Act>),
  });
}, 90_000);
afterAll(async () => {
  await listening?.close();
  await t?.stop();
}, 60_000);

const auditsOf = (targetId: string, count = 1) =>
  waitFor(() => {
    const found = audits.filter((e) => e.data.targetId === targetId);
    return found.length >= count ? found : undefined;
  }, `${count} audit events of ${targetId}`);

const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

describe('audit events of the usage settings', () => {
  it('when the super admin sets a budget and an admin a cap and a rate limit, then each change is audited with before and after', async () => {
    const ws = await t.newWorkspace();
    const sa = superAdmin();
    const budget = await t.call('PUT', `/api/usage/limits/budget?workspaceId=${ws.id}`, {
      as: sa,
      body: { monthlyBudgetMicros: 5_000_000 },
    });
    const budgetAgain = await t.call('PUT', `/api/usage/limits/budget?workspaceId=${ws.id}`, {
      as: sa,
      body: { monthlyBudgetMicros: null },
    });
    const rate = await t.call('PUT', `/api/usage/limits/rate?workspaceId=${ws.id}`, {
      as: ws.admin,
      body: { requestsPerMinute: 10 },
    });
    const cap = await t.call('PUT', `/api/usage/limits/users/${ws.user.uid}?workspaceId=${ws.id}`, {
      as: ws.admin,
      body: { monthlyCapMicros: 1_000_000 },
    });
    expect([budget.status, budgetAgain.status, rate.status, cap.status]).toEqual([
      200, 200, 200, 200,
    ]);

    const ofWorkspace = await auditsOf(String(ws.id), 3);
    const [capped] = await auditsOf(ws.user.uid!);
    await settle();

    expect(audits.filter((e) => e.data.targetId === String(ws.id))).toHaveLength(3);
    expect(
      ofWorkspace.map((e) => [e.data.action, e.data.actorId, e.data.before, e.data.after]),
    ).toEqual([
      [
        'usage.budget-changed',
        sa!.uid,
        { monthlyBudgetMicros: null },
        { monthlyBudgetMicros: 5_000_000 },
      ],
      [
        'usage.budget-changed',
        sa!.uid,
        { monthlyBudgetMicros: 5_000_000 },
        { monthlyBudgetMicros: null },
      ],
      [
        'usage.rate-limit-changed',
        ws.admin.uid,
        { requestsPerMinute: null },
        { requestsPerMinute: 10 },
      ],
    ]);
    expect(capped!.data).toMatchObject({
      action: 'usage.user-cap-changed',
      actorId: ws.admin.uid,
      workspaceId: ws.id,
      targetType: 'user',
      before: { monthlyCapMicros: null },
      after: { monthlyCapMicros: 1_000_000 },
    });
  });

  it('when the super admin changes a price, then a platform entry names the model and the changed figures', async () => {
    const sa = superAdmin();
    const changed = await t.call('PUT', '/api/usage/prices/gpt-4-turbo', {
      as: sa,
      body: { inputPerMillion: 11_000_000, outputPerMillion: 30_000_000 },
    });
    expect(changed.status).toBe(200);
    try {
      const [price] = await auditsOf('gpt-4-turbo');

      expect(price!.data).toMatchObject({
        action: 'usage.price-changed',
        actorId: sa!.uid,
        workspaceId: null,
        targetType: 'model',
        before: { version: changed.body.version - 1, inputPerMillion: 10_000_000 },
        after: { version: changed.body.version, inputPerMillion: 11_000_000 },
      });
      expect(price!.data.after).not.toHaveProperty('outputPerMillion'); // unchanged
    } finally {
      await t.call('PUT', '/api/usage/prices/gpt-4-turbo', {
        as: sa,
        body: { inputPerMillion: 10_000_000, outputPerMillion: 30_000_000 },
      });
    }
  });

  it('when a workspace admin tries to set the budget or a member a cap, then it is refused and nothing is audited', async () => {
    const ws = await t.newWorkspace();
    const budget = await t.call('PUT', `/api/usage/limits/budget?workspaceId=${ws.id}`, {
      as: ws.admin,
      body: { monthlyBudgetMicros: 1 },
    });
    const cap = await t.call('PUT', `/api/usage/limits/users/${ws.user.uid}?workspaceId=${ws.id}`, {
      as: ws.user,
      body: { monthlyCapMicros: 1 },
    });
    await settle();

    expect([budget.status, cap.status]).toEqual([403, 403]);
    expect(audits.filter((e) => e.data.workspaceId === ws.id)).toEqual([]);
  });
});
