import { randomUUID } from 'node:crypto';
import { createEvent } from '@aict/contracts';
import type { PromptRecord } from '../data/prompt.model';
import { workspaceSummary } from '../data/prompt-summary.model';
import { promptSnapshot } from './prompt-snapshot';
import {
  adminOf,
  buildPrompt,
  newWorkspaceId,
  startHarness,
  superAdmin,
  userOf,
  waitFor,
  type Harness,
} from '../test-support/harness';
import { rebuildPublicIndex, rebuildWorkspaceIndex } from './prompt-summaries';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

/** A stored prompt, as the prompts collection holds it. */
function buildPromptRecord(overrides: Partial<PromptRecord> = {}): PromptRecord {
  const now = new Date();
  return {
    _id: randomUUID(),
    workspaceId: newWorkspaceId(),
    userId: `u-${randomUUID()}`,
    name: 'Written behind the summary',
    template: 'About {topic}',
    variables: ['topic'],
    category: 'Business',
    contentType: 'text',
    model: 'gpt-4o',
    isPublic: false,
    rev: 1,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

const prompts = () => h.db.collection<PromptRecord>('prompts');

async function listedIds(workspaceId: number): Promise<string[]> {
  const res = await h.call('GET', `/api/prompts?workspaceId=${workspaceId}`, {
    as: userOf(workspaceId),
  });
  expect(res.status).toBe(200);
  return (res.body as Array<{ id: string }>).map((p) => p.id);
}

async function createPrompt(workspaceId: number, overrides: Record<string, unknown> = {}) {
  const res = await h.call('POST', '/api/prompts', {
    as: adminOf(workspaceId),
    body: buildPrompt({ workspaceId, ...overrides }),
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string };
}

describe('the summary documents the list reads', () => {
  it('when a prompt was written but its summary was not (a crash between the two), then rebuildWorkspaceIndex lists it, and running it again changes nothing', async () => {
    const ws = newWorkspaceId();
    const existing = await createPrompt(ws);
    const orphan = buildPromptRecord({ workspaceId: ws });
    await prompts().insertOne(orphan);
    expect(await listedIds(ws)).not.toContain(orphan._id);

    const rebuilt = await rebuildWorkspaceIndex(h.domain, ws);
    const again = await rebuildWorkspaceIndex(h.domain, ws);

    expect(rebuilt.map((entry) => entry.id).sort()).toEqual([existing.id, orphan._id].sort());
    expect(again).toEqual(rebuilt);
    const ids = await listedIds(ws);
    expect(ids).toEqual(expect.arrayContaining([existing.id, orphan._id]));
  });

  it('when the summary holds a stale entry and one of a prompt gone from the source, then the rebuild repairs both', async () => {
    const ws = newWorkspaceId();
    const renamed = await createPrompt(ws);
    const vanished = await createPrompt(ws);
    await prompts().updateOne(
      { _id: renamed.id },
      { $set: { name: 'Renamed behind its back' }, $inc: { rev: 1 } },
    );
    await prompts().deleteOne({ _id: vanished.id });

    await rebuildWorkspaceIndex(h.domain, ws);

    const res = await h.call('GET', `/api/prompts?workspaceId=${ws}`, { as: userOf(ws) });
    const own = (res.body as Array<{ id: string; name: string; workspaceId: number }>).filter(
      (p) => p.workspaceId === ws,
    );
    expect(own).toEqual([
      expect.objectContaining({ id: renamed.id, name: 'Renamed behind its back' }),
    ]);
  });

  it('when a public prompt was written without its public summary, then rebuildPublicIndex shows it in every workspace', async () => {
    const shared = buildPromptRecord({ isPublic: true });
    await prompts().insertOne(shared);
    const elsewhere = newWorkspaceId();
    expect(await listedIds(elsewhere)).not.toContain(shared._id);

    await rebuildPublicIndex(h.domain);

    expect(await listedIds(elsewhere)).toContain(shared._id);
  });

  it("when a write stopped before its summary but its event was in the outbox, then the relay and the service's own consumer repair the summary", async () => {
    const ws = newWorkspaceId();
    await createPrompt(ws); // the workspace's summary exists (a missing one is built by a scan)
    const record = buildPromptRecord({ workspaceId: ws });
    const event = createEvent('prompt.created', promptSnapshot(record, false), {
      correlationId: 'crash-test',
    });
    await prompts().insertOne({ ...record, _outbox: [event] } as PromptRecord);
    expect(await listedIds(ws)).not.toContain(record._id);

    await waitFor(async () => (await listedIds(ws)).includes(record._id), 'the repaired summary');
  });

  it('when the summary was written before with its entries as a list, then the list shows them and the next write keeps them', async () => {
    const ws = newWorkspaceId();
    const first = await createPrompt(ws, { name: 'Written before' });
    const chain = workspaceSummary(ws);
    const summaries = h.db.collection<{ chain: string; n: number; value: { entries: unknown } }>(
      'prompt_summaries',
    );
    const [latest] = await summaries.find({ chain }).sort({ n: -1 }).limit(1).toArray();
    expect(typeof latest!.value.entries).toBe('string');
    await summaries.updateOne(
      { _id: latest!._id },
      { $set: { 'value.entries': JSON.parse(latest!.value.entries as string) } },
    );

    expect(await listedIds(ws)).toContain(first.id);
    const second = await createPrompt(ws, { name: 'Written now' });

    expect(await listedIds(ws)).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it('when the summary document is missing, then the first list builds it from the prompts', async () => {
    const ws = newWorkspaceId();
    const created = await createPrompt(ws);
    const chain = workspaceSummary(ws);
    const summaries = h.db.collection('prompt_summaries');
    await summaries.deleteMany({ $or: [{ chain }, { _id: chain }] } as never);

    expect(await listedIds(ws)).toContain(created.id);
    expect(await summaries.countDocuments({ chain })).toBe(1);
  });

  it('when prompts are created, renamed and deleted while rebuilds run, then the summary ends equal to the prompts', async () => {
    const ws = newWorkspaceId();
    const seeded = await Promise.all(Array.from({ length: 4 }, () => createPrompt(ws)));

    await Promise.all([
      ...Array.from({ length: 6 }, () => createPrompt(ws)),
      ...seeded.slice(0, 2).map((p) =>
        h.call('PUT', `/api/prompts/${p.id}?workspaceId=${ws}`, {
          as: adminOf(ws),
          body: { name: `renamed ${p.id}` },
        }),
      ),
      ...seeded
        .slice(2)
        .map((p) =>
          h.call('DELETE', `/api/prompts/${p.id}?workspaceId=${ws}`, { as: adminOf(ws) }),
        ),
      rebuildWorkspaceIndex(h.domain, ws),
      rebuildWorkspaceIndex(h.domain, ws),
    ]);

    const source = await prompts()
      .find({ workspaceId: ws, _deletedAt: { $exists: false } })
      .toArray();
    const res = await h.call('GET', `/api/prompts?workspaceId=${ws}`, { as: superAdmin() });
    const listed = (res.body as Array<{ id: string; name: string; workspaceId: number }>)
      .filter((p) => p.workspaceId === ws)
      .map((p) => `${p.id}:${p.name}`)
      .sort();
    expect(source).toHaveLength(8);
    expect(listed).toEqual(source.map((p) => `${p._id}:${p.name}`).sort());
  });
});
