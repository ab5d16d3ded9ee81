import { createConnection, type Connection } from 'mongoose';
import { ContentsPage, type GeneratedContent } from '@aict/contracts';
import { readsDuring } from '@aict/service-kit/testing';
import { main as reindexCommand } from '../reindex';
import {
  adminOf,
  buildContent,
  buildImage,
  member,
  newWorkspaceId,
  startHarness,
  userOf,
  type Harness,
} from '../test-support/harness';
import type { DomainDeps } from './domain-deps';
import { AUTO_BUILD_PAGES, catchUpIndex, IndexQueue } from './search-index';
import { storeContent } from './store-content';

jest.setTimeout(120_000);

const PAGE_SIZE = 4;
let h: Harness;

beforeAll(async () => {
  // Small pages (many of them); no periodic repair (it would read the database meanwhile).
  h = await startHarness({ HISTORY_PAGE_SIZE: String(PAGE_SIZE), REPAIR_INTERVAL_MS: '600000' });
});
afterAll(() => h.stop());

const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);

/** Database reads (`find` commands) the service made so far, from its /metrics. */
async function readsSoFar(): Promise<number> {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('mongodb_command_duration_seconds_count') &&
        l.includes('command="find"') &&
        l.includes('result="ok"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

/** A search of workspace `ws` and the database reads it took. */
async function search(ws: number, q: string, extra = '') {
  const before = await readsSoFar();
  return searchNow(ws, q, extra, before);
}

/** The upkeep of what was stored so far is done (it runs after the store). */
const indexed = () => h.domain.indexer.idle();

async function searchNow(ws: number, q: string, extra: string, before: number) {
  const res = await h.call(
    'GET',
    `/api/contents?workspaceId=${ws}&q=${encodeURIComponent(q)}${extra}`,
    { as: userOf(ws) },
  );
  const reads = (await readsSoFar()) - before;
  expect(res.status).toBe(200);
  return { items: ids(ContentsPage.parse(res.body).items), reads };
}

/** `count` unremarkable texts of workspace `ws` (the hay), stored in order. */
async function storeHay(ws: number, count: number): Promise<GeneratedContent[]> {
  const stored: GeneratedContent[] = [];
  for (let i = 0; i < count; i++) {
    const c = buildContent({
      workspaceId: ws,
      title: `Weekly report ${i}`,
      content: `Plain words about the weather and the market, number ${i}.`,
    });
    await storeContent(h.domain, c);
    stored.push(c);
  }
  return stored;
}

describe('search index', () => {
  it('when a search has no hit in a history of many pages, then it reads no search page', async () => {
    const ws = newWorkspaceId();
    await storeHay(ws, 30 * PAGE_SIZE);
    await indexed();

    const found = await search(ws, 'Zebra crossing');

    expect(found.items).toEqual([]);
    // The search head, the index's marker and the query's postings; not 30 pages.
    expect(found.reads).toBeLessThanOrEqual(2 + 12);
  });

  it('when the only hits are old and on page boundaries, in a title and in a text, then they are found, newest first, reading only their pages', async () => {
    const ws = newWorkspaceId();
    const inTitle = buildContent({ workspaceId: ws, title: 'The Quokka plan', content: 'x' });
    const inText = buildContent({ workspaceId: ws, title: 'Notes', content: 'a QUOKKA smiles' });
    const imageUrlOnly = buildImage({ workspaceId: ws, title: 'Cat', content: '/quokka.png' });
    await storeContent(h.domain, inTitle);
    await storeHay(ws, PAGE_SIZE - 1); // inText opens the second page
    await storeContent(h.domain, inText);
    await storeContent(h.domain, imageUrlOnly);
    await storeHay(ws, 25 * PAGE_SIZE);
    await indexed();

    const found = await search(ws, 'quokka');
    const texts = await search(ws, 'okk', '&type=text');

    expect(found.items).toEqual([inText.id, inTitle.id]);
    expect(texts.items).toEqual([inText.id, inTitle.id]);
    // Head, marker, one posting per trigram, then the candidate pages only.
    expect(found.reads).toBeLessThanOrEqual(2 + 4 + 3);
  });

  it('when the query is shorter than three characters or holds regex characters, then it still matches literally and case-insensitively', async () => {
    const ws = newWorkspaceId();
    const literal = buildContent({ workspaceId: ws, title: 'Price (A+B)*? [x]' });
    const short = buildContent({ workspaceId: ws, title: 'Go Qz now', content: 'qz' });
    await storeContent(h.domain, literal);
    await storeContent(h.domain, short);
    await storeHay(ws, 3 * PAGE_SIZE);

    expect((await search(ws, '(a+b)*?')).items).toEqual([literal.id]);
    expect((await search(ws, '.*')).items).toEqual([]);
    expect((await search(ws, 'QZ')).items).toEqual([short.id]);
  });

  it('when a two-character query matches only an old content among many pages, then it is found reading only its page', async () => {
    const ws = newWorkspaceId();
    const old = buildContent({ workspaceId: ws, title: 'Q9 figures', content: 'x' });
    await storeContent(h.domain, old);
    await storeHay(ws, 20 * PAGE_SIZE);
    await indexed();

    const found = await search(ws, 'q9');

    expect(found.items).toEqual([old.id]);
    expect(found.reads).toBeLessThanOrEqual(2 + 1 + 1);
  });

  it('when a matching content is deleted, then the search no longer returns it', async () => {
    const ws = newWorkspaceId();
    const kept = buildContent({ workspaceId: ws, title: 'Narwhal one' });
    const gone = buildContent({ workspaceId: ws, title: 'Narwhal two' });
    await storeContent(h.domain, kept);
    await storeContent(h.domain, gone);
    await storeHay(ws, 2 * PAGE_SIZE);

    const removed = await h.call('DELETE', `/api/contents/${gone.id}`, { as: adminOf(ws) });

    expect(removed.status).toBe(204);
    expect((await search(ws, 'narwhal')).items).toEqual([kept.id]);
  });

  it("when another workspace holds matching contents, then they never match in this workspace's search", async () => {
    const ws = newWorkspaceId();
    const other = newWorkspaceId();
    const mine = buildContent({ workspaceId: ws, title: 'Pangolin notes' });
    const theirs = buildContent({ workspaceId: other, title: 'Pangolin secrets' });
    await storeContent(h.domain, mine);
    await storeContent(h.domain, theirs);
    const both = member({ [ws]: 'user', [other]: 'user' });

    const res = await h.call('GET', `/api/contents?workspaceId=${ws}&q=pangolin`, { as: both });

    expect(ids(res.body.items)).toEqual([mine.id]);
  });

  it('when the index upkeep has not run yet, then a search still finds the content just stored, and the store did not wait for it', async () => {
    const ws = newWorkspaceId();
    await storeHay(ws, 10 * PAGE_SIZE);
    await indexed();
    const stalled = new IndexQueue(() => new Promise<void>(() => undefined), h.domain.logger);
    const late = buildContent({ workspaceId: ws, title: 'Tapir report' });

    // The store answers although its page's upkeep never finishes.
    await expect(storeContent({ ...h.domain, indexer: stalled }, late)).resolves.toEqual({
      id: late.id,
      stored: true,
    });
    const found = await search(ws, 'tapir');

    expect(found.items).toEqual([late.id]);
    expect(found.reads).toBeLessThanOrEqual(2 + 5 + 1);
  });

  it('when a new workspace stores more pages than are built whole before its first index upkeep, then its searches still use the index', async () => {
    const ws = newWorkspaceId();
    // A burst faster than the upkeep's delay: no upkeep has run when it ends.
    const held = new IndexQueue(() => Promise.resolve(), h.domain.logger);
    await held.stop();
    const deps = { ...h.domain, indexer: held };
    for (let i = 0; i < (AUTO_BUILD_PAGES + 4) * PAGE_SIZE; i++)
      await storeContent(deps, buildContent({ workspaceId: ws, title: `Burst ${i}` }));

    const scheduled = await catchUpIndex(h.domain);
    await indexed();
    const found = await search(ws, 'zebra crossing');

    expect(scheduled).toBeGreaterThanOrEqual(AUTO_BUILD_PAGES + 4);
    expect(found.items).toEqual([]);
    // The head, the marker and the postings; no page read whole.
    expect(found.reads).toBeLessThanOrEqual(2 + 12);
  });

  it('when an owner from before the index has a few pages and no marker, then its next store builds its index whole', async () => {
    const ws = newWorkspaceId();
    await storeHay(ws, 6 * PAGE_SIZE); // built whole up to AUTO_BUILD_PAGES
    await indexed();
    await h.db.collection('search_postings').deleteMany({ key: String(ws) }); // marker too
    await h.db.collection('search_page_grams').deleteMany({ key: String(ws) });
    const dropped = await h.domain.index.readMarker(String(ws));
    const next = buildContent({ workspaceId: ws, title: 'Ibis count' });

    await storeContent(h.domain, next);
    await indexed();
    const built = await h.domain.index.readMarker(String(ws));

    expect(dropped.ready).toBe(false);
    // Searches read no page whole: the marker lists all seven at their versions.
    expect(built.ready).toBe(true);
    expect(Object.keys(built.iv)).toHaveLength(7);
    expect((await search(ws, 'ibis')).items).toEqual([next.id]);
  });

  it('when the process stopped before the index upkeep, then the catch-up at start indexes the pages it missed', async () => {
    const ws = newWorkspaceId();
    await storeHay(ws, 10 * PAGE_SIZE);
    await indexed();
    const lost = new IndexQueue(() => Promise.resolve(), h.domain.logger);
    await lost.stop(); // a stopped process: what it was given is gone
    const late = buildContent({ workspaceId: ws, title: 'Axolotl report' });
    const hay = buildContent({ workspaceId: ws, title: 'Weekly report x', content: 'plain' });
    await storeContent({ ...h.domain, indexer: lost }, late);
    await storeContent({ ...h.domain, indexer: lost }, hay);
    const before = await search(ws, 'zebra crossing');

    const scheduled = await catchUpIndex(h.domain);
    await indexed();
    const after = await search(ws, 'zebra crossing');
    const hit = await search(ws, 'axolotl');

    expect(scheduled).toBeGreaterThanOrEqual(1);
    // Before: the page the index missed is read whole; after: no page is read for no hit.
    expect(before.reads).toBeGreaterThan(after.reads);
    expect(after.items).toEqual([]);
    expect(hit.items).toEqual([late.id]);
  });

  it('when the index was dropped, then the search still answers by scanning, and the reindex command restores it', async () => {
    const ws = newWorkspaceId();
    const hit = buildContent({ workspaceId: ws, title: 'Okapi sighting' });
    await storeContent(h.domain, hit);
    await storeHay(ws, 20 * PAGE_SIZE);
    await indexed();
    await h.db.collection('search_postings').deleteMany({ key: String(ws) });
    await h.db.collection('search_page_grams').deleteMany({ key: String(ws) });
    const lines: string[] = [];

    const whileDropped = await search(ws, 'okapi');
    const code = await reindexCommand(['--workspace', String(ws)], h.env, (l) => lines.push(l));
    const restored = await search(ws, 'okapi');

    expect(whileDropped.items).toEqual([hit.id]);
    expect(whileDropped.reads).toBeGreaterThan(20);
    expect(code).toBe(0);
    expect(lines[0]).toMatch(
      new RegExp(`^Search index of ${ws} rebuilt: 21 pages, \\d+ trigrams\\.$`),
    );
    expect(restored.items).toEqual([hit.id]);
    expect(restored.reads).toBeLessThanOrEqual(2 + 3 + 1);
  });

  it('when a page is scheduled again before its upkeep, then it runs once, with the newest version, or with none (the head is read) when one schedule named none', async () => {
    const runs: Array<[string, number, number | undefined]> = [];
    const queue = new IndexQueue(
      async (key, page, ver) => void runs.push([key, page, ver]),
      h.domain.logger,
      0,
    );
    queue.schedule('a', 0, 3);
    queue.schedule('a', 0, 5);
    queue.schedule('a', 0, 4);
    queue.schedule('b', 1, 2);
    queue.schedule('b', 1);
    queue.schedule('b', 1, 7);

    await queue.idle();
    await queue.stop();

    expect(runs).toEqual([
      ['a', 0, 5],
      ['b', 1, undefined],
    ]);
  });

  it('when the reindex command is given no owner, then it prints its usage and exits with 2', async () => {
    const lines: string[] = [];

    const code = await reindexCommand([], h.env, (l) => lines.push(l));

    expect(code).toBe(2);
    expect(lines[0]).toMatch(/^Usage: reindex --workspace <id>/);
  });
});

describe("a search page's record of grams, kept by the process that keeps it up", () => {
  /** The service's database, with its commands observed. */
  let db: Connection;
  /** One process's use cases over `db` (its own caches and index upkeep). */
  let mine: DomainDeps;
  beforeAll(async () => {
    db = await createConnection(h.env.MONGO_URL!, { monitorCommands: true }).asPromise();
    mine = h.processOn(db);
  });
  afterAll(async () => {
    await mine.indexer.stop();
    await db.close();
  });

  /** Reads of search pages' records of grams while `work` runs. */
  const recordReads = async (work: () => Promise<unknown>) =>
    (await readsDuring(db.getClient(), 'search_page_grams', work)).length;

  const storeIndexed = async (content: GeneratedContent) => {
    await storeContent(mine, content);
    await mine.indexer.idle();
  };

  it('when a content is stored into an indexed history, then its upkeep reads no head (the store passes the version it recorded)', async () => {
    const ws = newWorkspaceId();
    await storeIndexed(buildContent({ workspaceId: ws, title: 'Opening words' }));
    await storeContent(mine, buildContent({ workspaceId: ws, title: 'Pangolin report' }));

    const heads = await readsDuring(db.getClient(), 'history_heads', () => mine.indexer.idle());

    expect(heads).toEqual([]);
    expect((await search(ws, 'pangolin')).items).toHaveLength(1);
  });

  it('when contents are stored one after another on one page, then its record is not read again (the process keeps the one it wrote)', async () => {
    const ws = newWorkspaceId();
    await storeIndexed(buildContent({ workspaceId: ws, title: 'Opening words' }));

    const reads = await recordReads(async () => {
      for (const title of ['Second entry', 'Third entry', 'Fourth entry'])
        await storeIndexed(buildContent({ workspaceId: ws, title }));
    });

    expect(reads).toBe(0);
    expect((await search(ws, 'fourth')).items).toHaveLength(1);
  });
});
