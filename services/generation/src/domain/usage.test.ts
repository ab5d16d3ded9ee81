import { randomUUID } from 'node:crypto';
import type { TrustedContext } from '@aict/contracts';
import {
  newWorkspaceId,
  startServiceHarness,
  type ServiceHarness,
} from '@aict/service-kit/testing';
import { createDomain } from '../app';
import { start } from '../main';
import type { DomainDeps } from './domain-deps';
import { budgetLimit, monthOf, spentOn, startMeter, userCounter, workspaceCounter } from './usage';
import { readTally, workspaceTally } from './usage-tally';

let h: ServiceHarness<Awaited<ReturnType<typeof start>>>;
let d: DomainDeps;
beforeAll(async () => {
  h = await startServiceHarness({ name: 'generation', start, listen: false });
  // A second domain over the same database: what a replica (or the restarted service) sees.
  d = createDomain({ ...h.service.deps, config: h.service.config });
}, 60_000);
afterAll(() => h?.stop(), 60_000);

const contextIn = (workspaceId: number): TrustedContext => ({
  uid: randomUUID(),
  sa: false,
  roles: { [workspaceId]: 'user' },
  ws: workspaceId,
  role: 'user',
  rid: 'test',
  ip: '127.0.0.1',
});

const IMAGE = { model: 'dall-e-3', kind: 'image', promptId: null } as const;
const ONE_IMAGE = {
  inputTokens: 0,
  outputTokens: 0,
  images: { count: 1, size: '1024x1024', quality: 'standard' },
};

describe('the usage meter across a crash', () => {
  it('when a call died mid-way and runs again under the same id, then it is counted once; a later call with that id is another', async () => {
    const workspaceId = newWorkspaceId();
    const ctx = contextIn(workspaceId);
    const counter = workspaceCounter(workspaceId, monthOf(new Date()));
    await d.usage.writeLimit(budgetLimit(workspaceId), 1_000_000);
    const callId = randomUUID();

    // The first run reserved its estimate, then its process died (never settled).
    await startMeter(d, ctx, workspaceId, callId, IMAGE);
    expect(await spentOn(d, counter)).toBe(40_000);
    expect((await d.usage.findEntry(callId))?.outcome).toBe('started');

    // The re-run (same Idempotency-Key, so the same id) takes the entry over.
    const rerun = await startMeter(d, ctx, workspaceId, callId, IMAGE);
    expect(await spentOn(d, counter)).toBe(40_000);
    await rerun.settle(ONE_IMAGE);
    expect(await d.usage.findEntry(callId)).toMatchObject({
      outcome: 'ok',
      costMicros: 40_000,
      settled: true,
    });
    expect(await spentOn(d, counter)).toBe(40_000);

    // The request failed after the call (its key was freed): a retry is a new provider call.
    const retry = await startMeter(d, ctx, workspaceId, callId, IMAGE);
    expect(retry.id).toBe(`${callId}#2`);
    await retry.settle(null);
    expect(await d.usage.findEntry(retry.id)).toMatchObject({ outcome: 'error', costMicros: 0 });
    expect(await spentOn(d, counter)).toBe(40_000);
    expect(await d.usage.listMonth(workspaceId, monthOf(new Date()))).toHaveLength(2);
  });
});

/** Waits until the ledger holds the entry with that outcome. */
async function waitForEntry(id: string, outcome: string) {
  for (let i = 0; i < 100; i++) {
    if ((await d.usage.findEntry(id))?.outcome === outcome) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`entry ${id} never became ${outcome}`);
}

describe('the meter on the hot path', () => {
  it('when a workspace has no budget and no cap, then a warm call reads nothing and waits for no write before the provider, and is counted once when it settles', async () => {
    const workspaceId = newWorkspaceId();
    const ctx = contextIn(workspaceId);
    const month = monthOf(new Date());
    const TEXT = { model: 'gpt-4o', kind: 'text', promptId: 'p1' } as const;
    // The first call of the workspace reads its limits and the model's price once.
    await (await startMeter(d, ctx, workspaceId, randomUUID(), TEXT)).settle(null);

    const reads = [
      jest.spyOn(d.models.UsageLimit, 'findById'),
      jest.spyOn(d.usage.counters, 'latest'),
      jest.spyOn(d.usage.counters, 'append'),
      jest.spyOn(d.usage.prices, 'latest'),
    ];
    // The ledger insert is held until the meter is back: the call must not wait for it.
    const ledger = d.models.UsageEntry.collection;
    const insertOne = ledger.insertOne.bind(ledger);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const insert = jest
      .spyOn(ledger, 'insertOne')
      .mockImplementation(((...args: Parameters<typeof insertOne>) =>
        held.then(() => insertOne(...args))) as never);
    try {
      const meter = await startMeter(d, ctx, workspaceId, randomUUID(), TEXT);
      expect(meter.guarded).toBe(false);
      expect(reads.map((spy) => spy.mock.calls.length)).toEqual([0, 0, 0, 0]);
      release();
      // The call is in the ledger while it runs (a process dying now leaves it there).
      await waitForEntry(meter.id, 'started');

      // 1,000 input and 100 output tokens of gpt-4o: 2,500 + 1,000 micro-USD.
      await meter.settle({ inputTokens: 1_000, outputTokens: 100, images: null });
      expect(await d.usage.findEntry(meter.id)).toMatchObject({
        outcome: 'ok',
        costMicros: 3_500,
        settled: true,
        reserved: false,
      });
    } finally {
      [...reads, insert].forEach((spy) => spy.mockRestore());
    }
    expect(await spentOn(d, workspaceCounter(workspaceId, month))).toBe(3_500);
    expect(await spentOn(d, userCounter(workspaceId, ctx.uid!, month))).toBe(3_500);
    expect((await readTally(d, workspaceTally(workspaceId, month))).value.byModel).toEqual([
      { key: 'gpt-4o', costMicros: 3_500, calls: 2 },
    ]);
  });

  it('when a budget is set on this replica, then the next call is guarded at once', async () => {
    const workspaceId = newWorkspaceId();
    const ctx = contextIn(workspaceId);
    expect((await startMeter(d, ctx, workspaceId, randomUUID(), IMAGE)).guarded).toBe(false);
    await d.usage.writeLimit(budgetLimit(workspaceId), 1);
    const guarded = await startMeter(d, ctx, workspaceId, randomUUID(), IMAGE);
    expect(guarded.guarded).toBe(true);
    await guarded.settle(ONE_IMAGE);
    await expect(startMeter(d, ctx, workspaceId, randomUUID(), IMAGE)).rejects.toMatchObject({
      code: 'GENERATION.BUDGET_REACHED',
    });
  });
});
