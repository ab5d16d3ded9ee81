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
import { budgetLimit, spentOn, startMeter, workspaceCounter, monthOf } from './usage';

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
