import { createConnection, mongo, type Connection } from 'mongoose';
import { readsDuring } from '@aict/service-kit/testing';
import { SearchPageCache } from './page-cache';
import { newWorkspaceId, startHarness, type Harness } from '../test-support/harness';
import { contentCollections } from './collections';
import { createHistoryRepository } from './history.repository';
import {
  encodeVersions,
  headId,
  pageId,
  type OwnerKey,
  type Scope,
  type SummaryItem,
} from './layout';

jest.setTimeout(60_000);

let h: Harness;
/** The service's database, with its commands observed (as the service's own client is). */
let db: Connection;

beforeAll(async () => {
  h = await startHarness();
  db = await createConnection(h.env.MONGO_URL!, { monitorCommands: true }).asPromise();
});
afterAll(async () => {
  await db.close();
  await h.stop();
});

let clock = Date.now() - 500_000;

function itemOf(key: OwnerKey, title: string): SummaryItem {
  clock += 1000;
  return {
    id: `${key}-${title}`,
    t: clock,
    title,
    content: `${title} text`,
    contentType: 'text',
    model: 'gpt-4o',
    language: 'en',
    userId: 'u1',
    workspaceId: Number(key),
    promptId: null,
    parentId: null,
    metadata: '{}',
  };
}

/** One process's repository: its own cache, as the service has. */
function processRepository() {
  return createHistoryRepository(contentCollections(db), 50, new SearchPageCache(4 * 1024 * 1024));
}

type Repository = ReturnType<typeof processRepository>;

/** What the store does for one scope: the item placed (and its page's version recorded). */
const add = (history: Repository, key: OwnerKey, scope: Scope, item: SummaryItem) =>
  history.place(key, scope, item);

/** Page reads by `_id` sent to the database while `work` runs. */
const pageReads = (work: () => Promise<unknown>) =>
  readsDuring(db.getClient(), ['history_pages', 'search_pages'], work);

const storedTitles = async (key: OwnerKey, scope: Scope, page = 0) =>
  ((await processRepository().readPage(key, scope, page))?.items ?? []).map((i) => i.title);

describe('history pages kept for their version', () => {
  it('when items are added one after another, then the page written last is not read again', async () => {
    const key = String(newWorkspaceId());
    const history = processRepository();
    await add(history, key, 'all', itemOf(key, 'first'));

    const reads = await pageReads(async () => {
      await add(history, key, 'all', itemOf(key, 'second'));
      await add(history, key, 'all', itemOf(key, 'third'));
    });

    expect(reads).toEqual([]);
    expect(await storedTitles(key, 'all')).toEqual(['first', 'second', 'third']);
  });

  it('when another process added to the page meanwhile, then the page is read again and both items stay', async () => {
    const key = String(newWorkspaceId());
    const mine = processRepository();
    const other = processRepository();
    await add(mine, key, 'search', itemOf(key, 'mine before'));
    await add(other, key, 'search', itemOf(key, 'from the other process'));

    const reads = await pageReads(() => add(mine, key, 'search', itemOf(key, 'mine after')));

    expect(reads).toEqual([pageId(key, 'search', 0)]);
    expect(await storedTitles(key, 'search')).toEqual([
      'mine before',
      'from the other process',
      'mine after',
    ]);
  });

  it('when the head lists no versions (written before they were recorded), then the page is read', async () => {
    const key = String(newWorkspaceId());
    const history = processRepository();
    await add(history, key, 'text', itemOf(key, 'old'));
    await db.collection('history_heads').updateOne({ _id: headId(key, 'text') } as never, {
      $unset: { v: '' },
    });

    const reads = await pageReads(() => history.place(key, 'text', itemOf(key, 'new')));

    expect(reads).toEqual([pageId(key, 'text', 0)]);
    expect(await storedTitles(key, 'text')).toEqual(['old', 'new']);
  });

  it('when a page write was stored but its answer lost, then the next add reads the page as stored', async () => {
    const key = String(newWorkspaceId());
    const history = processRepository();
    await add(history, key, 'all', itemOf(key, 'kept'));
    // The driver's next replace (the page's write) is stored, then its answer is lost.
    const original = mongo.Collection.prototype.replaceOne;
    const replaceOne = jest.spyOn(mongo.Collection.prototype, 'replaceOne');
    replaceOne.mockImplementationOnce(async function (
      this: mongo.Collection,
      ...args: Parameters<mongo.Collection['replaceOne']>
    ) {
      await original.apply(this, args);
      throw new Error('connection lost');
    });
    await expect(history.place(key, 'all', itemOf(key, 'answer lost'))).rejects.toThrow(
      'connection lost',
    );
    replaceOne.mockRestore();

    await add(history, key, 'all', itemOf(key, 'after'));

    expect(await storedTitles(key, 'all')).toEqual(['kept', 'answer lost', 'after']);
  });
});

describe('pages as stored', () => {
  it('when a page was written before as a list of items, then it is read and the next add keeps its items', async () => {
    const key = String(newWorkspaceId());
    const older = itemOf(key, 'written before');
    await db
      .collection('history_pages')
      .insertOne({ _id: pageId(key, 'all', 0), ver: 1, items: [older] } as never);
    await db
      .collection('history_heads')
      .insertOne({ _id: headId(key, 'all'), lastPage: 0, v: { 0: 1 } } as never);

    await add(processRepository(), key, 'all', itemOf(key, 'added now'));

    expect(await storedTitles(key, 'all')).toEqual(['written before', 'added now']);
    const stored = await db
      .collection('history_pages')
      .findOne({ _id: pageId(key, 'all', 0) } as never);
    expect(typeof stored?.items).toBe('string');
  });
});

/** The `_id`s of the heads written (updates and replaces) while `work` runs. */
async function headWrites(work: () => Promise<unknown>): Promise<string[]> {
  const writes: string[] = [];
  const onStarted = (event: mongo.CommandStartedEvent) => {
    const command = event.command as { update?: string; updates?: { q: { _id?: unknown } }[] };
    if (command.update === 'history_heads')
      for (const u of command.updates ?? []) writes.push(String(u.q._id));
  };
  db.getClient().on('commandStarted', onStarted);
  try {
    await work();
  } finally {
    db.getClient().off('commandStarted', onStarted);
  }
  return writes;
}

describe('page versions in the head', () => {
  it('when the first item of a scope is added, then its head is written once', async () => {
    const key = String(newWorkspaceId());

    const writes = await headWrites(() => add(processRepository(), key, 'image', itemOf(key, 'a')));

    expect(writes).toEqual([headId(key, 'image')]);
  });

  it('when an item already stored is added again (a repeated store), then no head is written', async () => {
    const key = String(newWorkspaceId());
    const history = processRepository();
    const item = itemOf(key, 'once');
    await add(history, key, 'all', item);

    const writes = await headWrites(() => add(history, key, 'all', item));

    expect(writes).toEqual([]);
    expect(await storedTitles(key, 'all')).toEqual(['once']);
  });

  it('when a head was written before with a map of versions, then its pages are still taken from the cache and its versions kept', async () => {
    const key = String(newWorkspaceId());
    const history = processRepository();
    const first = await add(history, key, 'all', itemOf(key, 'first'));
    // The head as versions before this one wrote it: a field per page.
    await db
      .collection('history_heads')
      .replaceOne({ _id: headId(key, 'all') } as never, { lastPage: 0, v: { 0: first.ver } });

    const reads = await pageReads(() => add(history, key, 'all', itemOf(key, 'second')));

    expect(reads).toEqual([]);
    expect((await history.readHead(key, 'all'))?.v).toEqual({ 0: first.ver + 1 });
    expect(await storedTitles(key, 'all')).toEqual(['first', 'second']);
  });

  it('when items fill several pages and one in an older page is removed, then the head lists every page at its version', async () => {
    const key = String(newWorkspaceId());
    const history = createHistoryRepository(contentCollections(db), 2);
    const items = ['a', 'b', 'c', 'd', 'e'].map((t) => itemOf(key, t));
    for (const item of items) await add(history, key, 'text', item);

    const removed = await history.remove(key, 'text', items[0]!);

    expect(removed).toEqual({ page: 0, ver: 3, changed: true });
    expect(await history.readHead(key, 'text')).toEqual({
      _id: headId(key, 'text'),
      lastPage: 2,
      v: { 0: 3, 1: 2, 2: 1 },
    });
  });

  it('when a remove or replace finds its page already written but the head behind (a crash in between), then the head lists the page as stored', async () => {
    const key = String(newWorkspaceId());
    const history = createHistoryRepository(contentCollections(db), 2);
    const items = ['a', 'b', 'c'].map((t) => itemOf(key, t));
    for (const item of items) await add(history, key, 'text', item);
    await history.remove(key, 'text', items[0]!);
    await history.replace(key, 'text', { ...items[2]!, title: 'c renamed' });
    const stored = await history.readHead(key, 'text');
    // The process stopped after each page's write, before its head was written.
    const behind = () =>
      db.collection('history_heads').replaceOne({ _id: headId(key, 'text') } as never, {
        lastPage: 1,
        v: encodeVersions({ 0: 1, 1: 1 }),
      });

    await behind();
    const removedAgain = await history.remove(key, 'text', items[0]!);
    await history.replace(key, 'text', { ...items[2]!, title: 'c renamed' });

    expect(removedAgain).toEqual({ page: 0, ver: stored?.v?.[0], changed: false });
    expect(await history.readHead(key, 'text')).toEqual(stored);
    expect(stored?.v).toEqual({ 0: 3, 1: 2 });
  });
});
