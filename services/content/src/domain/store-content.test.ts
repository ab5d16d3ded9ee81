import { createConnection } from 'mongoose';
import { createEvent } from '@aict/contracts';
import { readsDuring } from '@aict/service-kit/testing';
import { pendingStoreId } from '../data/collections';
import { recordOf } from '../data/layout';
import {
  buildContent,
  buildImage,
  newWorkspaceId,
  startHarness,
  userOf,
  waitFor,
  type Harness,
  pendingLeftBehind,
} from '../test-support/harness';
import { repairPending } from './repair';
import { storeContent } from './store-content';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  // The repair runs when the tests call it (the service's own pass only at start).
  h = await startHarness({ REPAIR_INTERVAL_MS: '600000' });
});
afterAll(() => h.stop());

/** The content.created events of a content (distinct ids: a redelivery is the same event). */
const createdFor = (id: string) => [
  ...new Set(
    h.events
      .filter(
        (e) => e.type === 'content.created' && (e.data as { contentId: string }).contentId === id,
      )
      .map((e) => e.id),
  ),
];

/** The content.created event published for a content. */
const createdEventOf = (id: string) =>
  h.events.find((e) => (e.data as { contentId?: string }).contentId === id);

const publishCompleted = (content: ReturnType<typeof buildContent>) =>
  h.generationBus.publish('generation.completed', content);

const list = (ws: number, query = '') =>
  h.call('GET', `/api/contents?workspaceId=${ws}${query}`, { as: userOf(ws) });

describe('storing a finished generation', () => {
  it('when a new content is stored, then its record is read once, and its second copy is answered without a read', async () => {
    const db = await createConnection(h.env.MONGO_URL!, { monitorCommands: true }).asPromise();
    const other = h.processOn(db);
    const content = buildContent({ workspaceId: newWorkspaceId() });
    try {
      const stores: boolean[] = [];
      const reads = await readsDuring(db.getClient(), 'contents', async () => {
        stores.push((await storeContent(other, content)).stored);
        stores.push((await storeContent(other, content)).stored);
      });
      // A process that has not seen it: found by its read after the pending write, which goes.
      const elsewhere = await storeContent(h.domain, content);

      expect(stores).toEqual([true, false]);
      expect(reads).toEqual([content.id]);
      expect(elsewhere.stored).toBe(false);
      expect(
        await h.db.collection('pending').findOne({ _id: pendingStoreId(content.id) } as never),
      ).toBeNull();
    } finally {
      await other.indexer.stop();
      await db.close();
    }
  });

  it('when content.store and generation.completed bring the same content, then it is stored once and announced once', async () => {
    const ws = newWorkspaceId();
    const content = buildContent({ workspaceId: ws });

    const first = await h.store(content);
    await publishCompleted(content);
    const second = await h.store(content);

    expect(first).toEqual({ id: content.id, stored: true });
    expect(second).toEqual({ id: content.id, stored: false });
    await waitFor(() => createdFor(content.id).length === 1, 'content.created');
    const got = await h.call('GET', `/api/contents/${content.id}`, { as: userOf(ws) });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: content.id, content: content.content, workspaceId: ws });
    expect(got.body.metadata.usage).toEqual({ promptTokens: 10, completionTokens: 20 });
    // The queued copy has been consumed by now (it found the content already stored).
    await waitFor(async () => {
      const q = await h.generationBus.request('content.store', content);
      return (q as { stored: boolean }).stored === false;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(createdFor(content.id)).toHaveLength(1);
    expect((await list(ws)).body.items).toHaveLength(1);
  });

  it('when the same content arrives many times at once, then one record, one list item and one count result', async () => {
    const ws = newWorkspaceId();
    const content = buildContent({ workspaceId: ws });

    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => h.store(content)),
      ...Array.from({ length: 5 }, () => storeContent(h.domain, content)),
      publishCompleted(content),
    ]);

    const stored = replies.filter((r) => (r as { stored?: boolean }).stored === true);
    expect(stored).toHaveLength(1);
    await waitFor(() => createdFor(content.id).length === 1, 'content.created');
    expect(await h.db.collection('contents').countDocuments({ _id: content.id } as never)).toBe(1);
    expect((await list(ws)).body.items.map((i: { id: string }) => i.id)).toEqual([content.id]);
    const counters = await h.db.collection('counters').findOne({ _id: String(ws) } as never);
    expect(counters).toMatchObject({ text: 1, promptTokens: 10, completionTokens: 20 });
  });

  it('when only the queued event arrives (the request timed out), then the content is stored from it and announced', async () => {
    const ws = newWorkspaceId();
    const image = buildImage({ workspaceId: ws });

    await publishCompleted(image);

    await waitFor(() => createdFor(image.id).length === 1, 'content.created');
    const got = await h.call('GET', `/api/contents/${image.id}`, { as: userOf(ws) });
    expect(got.body).toMatchObject({
      contentType: 'image',
      content: `/api/images/${image.id}?workspaceId=${ws}`,
    });
    const counters = await h.db.collection('counters').findOne({ _id: String(ws) } as never);
    expect(counters).toMatchObject({ image: 1, images: 1 });
  });

  it('when content.store gets something that is not a valid generation, then 400 and nothing is stored', async () => {
    const ws = newWorkspaceId();
    const bad = { ...buildContent({ workspaceId: ws }), contentType: 'video' };
    const reply = h.store(bad as never);

    await expect(reply).rejects.toMatchObject({ code: 'VALIDATION.FAILED' });
    expect((await list(ws)).body.items).toHaveLength(0);
  });
});

describe('repair after a crash', () => {
  it('when the process stopped after writing the record and before the derived documents, then the repair completes them once and announces it once', async () => {
    const ws = newWorkspaceId();
    const earlier = buildContent({ workspaceId: ws });
    await h.store(earlier);
    const reply = buildContent({
      workspaceId: ws,
      parentId: earlier.id,
      threadId: earlier.id,
      metadata: { originalMessage: 'And more?' },
    });
    // What storeContent leaves behind when it dies right after the record's insert:
    const event = createEvent(
      'content.created',
      {
        contentId: reply.id,
        workspaceId: ws,
        userId: reply.userId,
        contentType: 'text',
        promptId: null,
        parentId: earlier.id,
        title: reply.title,
        model: reply.model,
        language: reply.language,
        createdAt: reply.createdAt,
      },
      { correlationId: 'crash-test' },
    );
    await h.db.collection('pending').insertOne(pendingLeftBehind(reply, event) as never);
    await h.db.collection('contents').insertOne(recordOf(reply) as never);

    const before = await list(ws);
    const repaired = await repairPending(h.domain, 0);
    const again = await repairPending(h.domain, 0);

    expect(before.body.items.map((i: { id: string }) => i.id)).toEqual([earlier.id]);
    expect(repaired).toBeGreaterThanOrEqual(1);
    expect(again).toBe(0);
    const after = await list(ws);
    expect(after.body.items.map((i: { id: string }) => i.id)).toEqual([reply.id, earlier.id]);
    const conversation = await h.call('GET', `/api/contents/${reply.id}/conversation`, {
      as: userOf(ws),
    });
    expect(conversation.body.map((i: { id: string }) => i.id)).toEqual([earlier.id, reply.id]);
    const counters = await h.db.collection('counters').findOne({ _id: String(ws) } as never);
    expect(counters).toMatchObject({ text: 2, promptTokens: 20 });
    await waitFor(() => createdFor(reply.id).length === 1, 'content.created from the repair');
    expect(await h.db.collection('pending').countDocuments({ key: String(ws) })).toBe(0);
  });

  it('when the process stopped after the derived documents and before the event, then the repair publishes it and changes no count', async () => {
    const ws = newWorkspaceId();
    const content = buildContent({ workspaceId: ws });
    await h.store(content);
    await waitFor(() => createdFor(content.id).length === 1, 'content.created');
    // As if the pending write had not been removed (crash after the derived writes).
    await h.db
      .collection('pending')
      .insertOne(pendingLeftBehind(content, createdEventOf(content.id)) as never);

    await repairPending(h.domain, 0);

    const counters = await h.db.collection('counters').findOne({ _id: String(ws) } as never);
    expect(counters).toMatchObject({ text: 1, promptTokens: 10 });
    expect((await list(ws)).body.items).toHaveLength(1);
  });

  it('when the counters were written before as a list of operations, then the repair still changes no count and the next store counts once', async () => {
    const ws = newWorkspaceId();
    const content = buildContent({ workspaceId: ws });
    await h.store(content);
    await waitFor(() => createdFor(content.id).length === 1, 'content.created');
    const counters = h.db.collection('counters');
    // The shape documents had before the operations were one string.
    await counters.updateOne({ _id: String(ws) } as never, {
      $set: { applied: [`+${content.id}`] },
    });
    await h.db
      .collection('pending')
      .insertOne(pendingLeftBehind(content, createdEventOf(content.id)) as never);

    await repairPending(h.domain, 0);
    const next = buildContent({ workspaceId: ws });
    await h.store(next);
    await h.store(next);

    expect(await counters.findOne({ _id: String(ws) } as never)).toMatchObject({
      text: 2,
      promptTokens: 20,
      applied: `+${content.id} +${next.id}`,
    });
  });
});
