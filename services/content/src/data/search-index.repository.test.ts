import { createConnection, type Connection } from 'mongoose';
import { readsDuring } from '@aict/service-kit/testing';
import { newWorkspaceId, startHarness, type Harness } from '../test-support/harness';
import { contentCollections } from './collections';
import { createSearchIndexRepository } from './search-index.repository';

jest.setTimeout(60_000);

let h: Harness;
/** The service's database, with its commands observed. */
let db: Connection;

beforeAll(async () => {
  h = await startHarness();
  db = await createConnection(h.env.MONGO_URL!, { monitorCommands: true }).asPromise();
});
afterAll(async () => {
  await db.close();
  await h.stop();
});

/** Reads of search pages' records of grams while `work` runs. */
const recordReads = async (work: () => Promise<unknown>) =>
  (await readsDuring(db.getClient(), 'search_page_grams', work)).length;

describe("a search page's record of grams, kept by the process that writes it", () => {
  it('when the upkeep adds grams to a page, then the next upkeep of the same index knows them without a read', async () => {
    const key = String(newWorkspaceId());
    const index = createSearchIndexRepository(contentCollections(db));
    const known = await index.readPageGrams(key, 0, 'gen-1');
    await index.addToPage(key, 0, known, ['abc', 'bcd'], 'gen-1');

    let again: ReadonlySet<string> = new Set();
    const reads = await recordReads(async () => {
      again = await index.readPageGrams(key, 0, 'gen-1');
    });

    expect([...again].sort()).toEqual(['abc', 'bcd']);
    expect(reads).toBe(0);
  });

  it('when another process rebuilt the index since (a new generation), then the record is read as rebuilt', async () => {
    const key = String(newWorkspaceId());
    const mine = createSearchIndexRepository(contentCollections(db));
    await mine.addToPage(key, 0, new Set(), ['old'], 'gen-1');
    // The reindex command: the index dropped, then built again from the pages as they are now.
    const other = createSearchIndexRepository(contentCollections(db));
    await other.drop(key);
    await other.load(key, new Map([[0, new Set(['new'])]]));

    const known = await mine.readPageGrams(key, 0, 'gen-2');

    expect([...known]).toEqual(['new']);
  });
});
