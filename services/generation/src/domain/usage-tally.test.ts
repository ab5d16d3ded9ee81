import { randomUUID } from 'node:crypto';
import type { TrustedContext } from '@aict/contracts';
import {
  newWorkspaceId,
  readsDuring,
  startServiceHarness,
  type ServiceHarness,
} from '@aict/service-kit/testing';
import { createDomain } from '../app';
import { start } from '../main';
import type { UsageEntry } from '../data/usage.model';
import type { DomainDeps } from './domain-deps';
import { monthOf, startMeter } from './usage';
import { usageSummary } from './usage-report';
import { readTally, repairTallies, tallyEntry, workspaceTally } from './usage-tally';

let h: ServiceHarness<Awaited<ReturnType<typeof start>>>;
let d: DomainDeps;
let replica: DomainDeps;
beforeAll(async () => {
  h = await startServiceHarness({ name: 'generation', start, listen: false });
  d = createDomain({ ...h.service.deps, config: h.service.config });
  // A second domain over the same database: another replica (its own locks and hints).
  replica = createDomain({ ...h.service.deps, config: h.service.config });
}, 60_000);
afterAll(() => h?.stop(), 60_000);

const contextIn = (workspaceId: number, role: 'user' | 'admin' = 'user'): TrustedContext => ({
  uid: randomUUID(),
  sa: false,
  roles: { [workspaceId]: role },
  ws: workspaceId,
  role,
  rid: 'test',
  ip: '127.0.0.1',
});

const TEXT = { model: 'gpt-3.5-turbo', kind: 'text', promptId: 'p1' } as const;
const IMAGE = { model: 'dall-e-3', kind: 'image', promptId: null } as const;
const ONE_IMAGE = {
  inputTokens: 0,
  outputTokens: 0,
  images: { count: 1, size: '1024x1024', quality: 'standard' },
};

/** A settled ledger entry written straight to the database (as a crashed settle leaves it). */
function buildSettledEntry(workspaceId: number, overrides: Partial<UsageEntry> = {}): UsageEntry {
  const now = new Date();
  return {
    _id: randomUUID(),
    workspaceId,
    userId: 'u-crash',
    promptId: null,
    model: 'gpt-4o',
    kind: 'text',
    month: monthOf(now),
    day: now.toISOString().slice(0, 10),
    startedAt: now,
    finishedAt: now,
    durationMs: 5,
    outcome: 'ok',
    inputTokens: 100,
    outputTokens: 100,
    images: null,
    priceVersion: 0,
    price: { inputPerMillion: 2_500_000, outputPerMillion: 10_000_000, perImage: 0 },
    currency: 'USD',
    estimateMicros: 1_000,
    costMicros: 1_250,
    reserved: true,
    settled: true,
    ...overrides,
  };
}

describe('month tallies', () => {
  it('when calls of two users settle at once on two replicas, then the summary groups exactly what the ledger holds', async () => {
    const workspaceId = newWorkspaceId();
    const alice = contextIn(workspaceId);
    const bob = contextIn(workspaceId);
    const calls = Array.from({ length: 24 }, (_, i) => ({
      domain: i % 2 ? d : replica,
      ctx: i % 3 ? alice : bob,
      info: i % 4 ? TEXT : IMAGE,
    }));

    await Promise.all(
      calls.map(async ({ domain, ctx, info }) => {
        const meter = await startMeter(domain, ctx, workspaceId, randomUUID(), info);
        await meter.settle(
          info === IMAGE ? ONE_IMAGE : { inputTokens: 1000, outputTokens: 500, images: null },
        );
      }),
    );

    const admin = contextIn(workspaceId, 'admin');
    const summary = await usageSummary(d, admin, workspaceId, undefined);
    const ledger = await d.usage.listMonth(workspaceId, monthOf(new Date()));
    const sum = (entries: UsageEntry[]) => entries.reduce((s, e) => s + e.costMicros, 0);
    expect(ledger).toHaveLength(24);
    expect(summary.byUser).toEqual(
      [alice, bob]
        .map((ctx) => {
          const own = ledger.filter((e) => e.userId === ctx.uid);
          return { key: ctx.uid!, costMicros: sum(own), calls: own.length };
        })
        .sort((a, b) => b.costMicros - a.costMicros),
    );
    expect(summary.byModel.map((row) => [row.key, row.calls])).toEqual(
      expect.arrayContaining([
        ['gpt-3.5-turbo', 18],
        ['dall-e-3', 6],
      ]),
    );
    expect(summary.byDay.reduce((s, row) => s + row.costMicros, 0)).toBe(sum(ledger));
    expect(summary.byPrompt.find((row) => row.key === 'p1')?.calls).toBe(18);

    // A member sees their own month only.
    const own = await usageSummary(d, bob, workspaceId, undefined);
    const bobs = ledger.filter((e) => e.userId === bob.uid);
    expect(own.byUser).toEqual([{ key: bob.uid, costMicros: sum(bobs), calls: bobs.length }]);
  });

  it('when one process settled the calls, then their tally reads only the first slot not taken yet; a slot another process took is read', async () => {
    const workspaceId = newWorkspaceId();
    const scope = workspaceTally(workspaceId, monthOf(new Date()));
    const settleOn = async (domain: DomainDeps) =>
      (await startMeter(domain, contextIn(workspaceId), workspaceId, randomUUID(), TEXT)).settle({
        inputTokens: 1_000,
        outputTokens: 0,
        images: null,
      });
    for (let i = 0; i < 3; i++) await settleOn(d);

    /** The tally's slots not folded yet, read by `d`, and the slot reads that took. */
    const pendingRead = async () => {
      let pending = 0;
      const reads = await readsDuring(
        h.service.deps.mongo!.getClient(),
        'usage_tally_slots',
        async () => {
          pending = (await readTally(d, scope)).pending;
        },
      );
      return { pending, reads };
    };

    const { pending: mine, reads: mineReads } = await pendingRead();
    await settleOn(replica);
    const { pending: both, reads: bothReads } = await pendingRead();

    expect(mine).toBe(3);
    expect(mineReads).toEqual([`tally:${scope}:4`]);
    expect(both).toBe(4);
    // From slot 4 on (the other process's, then the first ones missing): none of its own.
    expect(bothReads[0]).toBe(`tally:${scope}:4`);
    expect(bothReads.filter((id) => /:[123]$/.test(id))).toEqual([]);
  });

  it('when a settle died before its entry was tallied, then the repair counts it once, however often it runs', async () => {
    const workspaceId = newWorkspaceId();
    const scope = workspaceTally(workspaceId, monthOf(new Date()));
    const tallied = buildSettledEntry(workspaceId);
    await d.usage.insertEntry(tallied);
    await tallyEntry(d, tallied);

    // Died after the entry was settled, before any slot.
    const untallied = buildSettledEntry(workspaceId, { costMicros: 700 });
    await d.usage.insertEntry(untallied);
    // Died after the slot was taken, before the fold and before anything else.
    const slotted = buildSettledEntry(workspaceId, { costMicros: 300 });
    await d.usage.insertEntry(slotted);
    await d.usage.markTallySlot(slotted._id, 'workspace', 2);
    await d.usage.insertTallySlot(scope, 2, {
      entryId: slotted._id,
      day: slotted.day,
      userId: slotted.userId,
      model: slotted.model,
      promptId: null,
      costMicros: 300,
      at: new Date(),
    });
    // Died after marking the slot it meant to take, before taking it.
    const marked = buildSettledEntry(workspaceId, { costMicros: 50 });
    await d.usage.insertEntry(marked);
    await d.usage.markTallySlot(marked._id, 'workspace', 3);

    expect((await readTally(d, scope)).value.byUser).toEqual([
      { key: 'u-crash', costMicros: 1_550, calls: 2 },
    ]);
    await repairTallies(replica, workspaceId, monthOf(new Date()));
    await repairTallies(d, workspaceId, monthOf(new Date()));
    await tallyEntry(replica, untallied);

    const after = await readTally(d, scope);
    expect(after.pending).toBe(0);
    expect(after.value.upTo).toBe(4);
    expect(after.value.byUser).toEqual([{ key: 'u-crash', costMicros: 2_300, calls: 4 }]);
  });

  it('when a settle died after its entry was settled and marked, before the slots, then the repair counts it once and keeps the slots gap-free', async () => {
    const workspaceId = newWorkspaceId();
    const scope = workspaceTally(workspaceId, monthOf(new Date()));
    const ctx = contextIn(workspaceId);
    const settleOne = async (domain: DomainDeps, callId = randomUUID()) =>
      (await startMeter(domain, ctx, workspaceId, callId, TEXT)).settle({
        inputTokens: 1000,
        outputTokens: 500,
        images: null,
      });
    await settleOne(d);
    // A replica whose process dies at the first slot insert: the settle update went out.
    const dying: DomainDeps = {
      ...replica,
      usage: {
        ...replica.usage,
        insertTallySlot: () => Promise.reject(new Error('process killed')),
      },
    };
    const diedId = randomUUID();
    await expect(settleOne(dying, diedId)).rejects.toThrow('process killed');
    expect(await d.usage.findEntry(diedId)).toMatchObject({
      settled: true,
      tally: { workspace: expect.any(Number), user: expect.any(Number) },
    });
    expect((await readTally(d, scope)).value.upTo).toBe(1);

    // Another settle takes the free slot 2; the repair gives the dead one slot 3, once.
    await settleOne(d);
    await repairTallies(replica, workspaceId, monthOf(new Date()));
    await repairTallies(d, workspaceId, monthOf(new Date()));
    const after = await readTally(d, scope);
    const all = await d.usage.listMonth(workspaceId, monthOf(new Date()));
    expect(after.pending).toBe(0);
    expect(after.value.upTo).toBe(3);
    expect(after.value.byUser).toEqual([
      { key: ctx.uid, costMicros: all.reduce((sum, e) => sum + e.costMicros, 0), calls: 3 },
    ]);
  });

  it('when an entry is still running, then the tally leaves it out until it settles', async () => {
    const workspaceId = newWorkspaceId();
    const running = buildSettledEntry(workspaceId, { outcome: 'started', settled: false });
    await d.usage.insertEntry(running);
    await tallyEntry(d, running);
    expect((await readTally(d, workspaceTally(workspaceId, running.month))).value.upTo).toBe(0);
  });
});
