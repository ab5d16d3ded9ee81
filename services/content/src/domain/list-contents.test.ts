import { createConnection, type Connection } from 'mongoose';
import { ListContentsQuery, type TrustedContext } from '@aict/contracts';
import { readsDuring } from '@aict/service-kit/testing';
import type { DomainDeps } from './domain-deps';
import { buildContent, newWorkspaceId, startHarness, type Harness } from '../test-support/harness';
import { listContents } from './list-contents';
import { storeContent } from './store-content';

jest.setTimeout(60_000);

let h: Harness;
/** The service's database, with its commands observed. */
let db: Connection;
/** One process's use cases over `db` (its own page cache). */
let mine: DomainDeps;

beforeAll(async () => {
  h = await startHarness();
  db = await createConnection(h.env.MONGO_URL!, { monitorCommands: true }).asPromise();
  mine = h.processOn(db);
});
afterAll(async () => {
  await mine.indexer.stop();
  await db.close();
  await h.stop();
});

const memberOf = (ws: number): TrustedContext => ({
  uid: 'u-owner',
  sa: false,
  roles: { [ws]: 'user' },
  ws,
  role: 'user',
  rid: 'test',
  ip: '127.0.0.1',
});

/** History pages read from the database while `work` runs. */
const pageReads = async (work: () => Promise<unknown>) =>
  (await readsDuring(db.getClient(), 'history_pages', work)).length;

const titles = async (d: DomainDeps, ws: number) =>
  (await listContents(d, memberOf(ws), ListContentsQuery.parse({}), ws)).items.map((i) => i.title);

describe('the history list', () => {
  it('when this process stored the newest contents, then their page is listed without reading it again', async () => {
    const ws = newWorkspaceId();
    await storeContent(mine, buildContent({ workspaceId: ws, title: 'first' }));
    await storeContent(mine, buildContent({ workspaceId: ws, title: 'second' }));

    let listed: string[] = [];
    const reads = await pageReads(async () => (listed = await titles(mine, ws)));

    expect(listed).toEqual(['second', 'first']);
    expect(reads).toBe(0);
  });

  it('when another process stored a content since, then the list shows it', async () => {
    const ws = newWorkspaceId();
    await storeContent(mine, buildContent({ workspaceId: ws, title: 'mine' }));
    await titles(mine, ws);
    await h.store(buildContent({ workspaceId: ws, title: 'from the other process' }));

    let listed: string[] = [];
    const reads = await pageReads(async () => (listed = await titles(mine, ws)));

    expect(listed).toEqual(['from the other process', 'mine']);
    expect(reads).toBe(1);
  });
});
