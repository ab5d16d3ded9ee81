import { randomUUID } from 'node:crypto';
import {
  adminOf,
  buildContent,
  buildImage,
  newWorkspaceId,
  startHarness,
  waitFor,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(60_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ HISTORY_PAGE_SIZE: '4' });
});
afterAll(() => h.stop());

const publish = (workspaceId: number, id: string = randomUUID()) =>
  h.workspaceBus.publish('workspace.deleted', { workspaceId }, { id });

const handled = (eventId: string) =>
  waitFor(
    async () =>
      (await h.db.collection('processed_events').findOne({ _id: eventId } as never))?.status ===
      'done',
    `event ${eventId} handled`,
  );

/** Documents of any collection whose _id or key names the workspace. */
async function leftovers(ws: number) {
  const key = String(ws);
  const prefix = new RegExp(`^${key}:`);
  const counts = await Promise.all([
    h.db.collection('contents').countDocuments({ workspaceId: ws }),
    h.db.collection('history_pages').countDocuments({ _id: prefix } as never),
    h.db.collection('search_pages').countDocuments({ _id: prefix } as never),
    h.db.collection('history_heads').countDocuments({ _id: prefix } as never),
    h.db.collection('threads').countDocuments({ key }),
    h.db.collection('pending').countDocuments({ key }),
    h.db.collection('search_postings').countDocuments({ key }),
    h.db.collection('search_page_grams').countDocuments({ key }),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

describe('workspace.deleted', () => {
  it('when a workspace is deleted, then its contents and derived documents go, other workspaces keep theirs, and a repeat changes nothing', async () => {
    const ws = newWorkspaceId();
    const elsewhere = newWorkspaceId();
    const first = buildContent({ workspaceId: ws });
    await h.store(first);
    await h.store(buildContent({ workspaceId: ws, parentId: first.id, threadId: first.id }));
    for (let i = 0; i < 6; i++) await h.store(buildImage({ workspaceId: ws }));
    const survivor = buildContent({ workspaceId: elsewhere });
    await h.store(survivor);
    expect(await leftovers(ws)).toBeGreaterThan(10);

    const event = await publish(ws);
    await handled(event.id);
    const again = await publish(ws);
    await handled(again.id);
    await h.workspaceBus.publish('workspace.deleted', { workspaceId: ws }, { id: event.id });

    expect(await leftovers(ws)).toBe(0);
    const list = await h.call('GET', `/api/contents?workspaceId=${ws}`, { as: adminOf(ws) });
    expect(list.body).toEqual({ items: [], nextCursor: null });
    const got = await h.call('GET', `/api/contents/${first.id}?workspaceId=${ws}`, {
      as: adminOf(ws),
    });
    expect(got.status).toBe(404);
    const kept = await h.call('GET', `/api/contents?workspaceId=${elsewhere}`, {
      as: adminOf(elsewhere),
    });
    expect(kept.body.items.map((i: { id: string }) => i.id)).toEqual([survivor.id]);
  });

  it('when a generation of a deleted workspace arrives late, then it is not stored', async () => {
    const ws = newWorkspaceId();
    const event = await publish(ws);
    await handled(event.id);

    const late = buildContent({ workspaceId: ws });
    expect(await h.store(late)).toEqual({ id: late.id, stored: false });
    expect(await leftovers(ws)).toBe(0);
  });
});
