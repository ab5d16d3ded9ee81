import { createObjectStore, type ObjectStore } from './storage';
import { sweepOrphanObjects } from './orphan-sweep';
import { captureLogs, TEST_MINIO, uniqueName } from './test-support';

describe('sweepOrphanObjects on MinIO', () => {
  const { logger } = captureLogs('orphan-sweep-test');
  const bucket = uniqueName('sk-sweep', '-');
  let store: ObjectStore;

  beforeAll(async () => {
    store = createObjectStore({ ...TEST_MINIO, bucket }, logger);
    await store.ensureBucket();
  });

  afterAll(async () => {
    for (const key of await store.list('')) await store.remove(key);
    await store.client.removeBucket(bucket);
  });

  const put = (key: string) => store.put(key, Buffer.from(key), { contentType: 'text/plain' });
  const anHourLater = () => Date.now() + 3_600_000;

  it('when objects are past the grace period, then those no record points to are removed and the others kept', async () => {
    await Promise.all(['a/kept-1', 'a/orphan-1', 'a/kept-2', 'a/orphan-2'].map(put));
    const records = new Set(['a/kept-1', 'a/kept-2']);

    const result = await sweepOrphanObjects({
      store,
      logger,
      prefix: 'a/',
      isReferenced: async (key) => records.has(key),
      graceMs: 60_000,
      batch: 100,
      now: anHourLater,
    });

    expect(result).toEqual({ scanned: 4, removed: ['a/orphan-1', 'a/orphan-2'], next: undefined });
    expect((await store.list('a/')).sort()).toEqual(['a/kept-1', 'a/kept-2']);
  });

  it('when an orphan is younger than the grace period, then it is left alone (an upload may be on its way)', async () => {
    await put('b/just-written');

    const result = await sweepOrphanObjects({
      store,
      logger,
      prefix: 'b/',
      isReferenced: async () => false,
      graceMs: 60_000,
      batch: 100,
    });

    expect(result.removed).toEqual([]);
    expect(await store.list('b/')).toEqual(['b/just-written']);
  });

  it('when the check of a record fails, then the object is kept', async () => {
    await put('c/unknown');

    const result = await sweepOrphanObjects({
      store,
      logger,
      prefix: 'c/',
      isReferenced: async () => {
        throw new Error('database down');
      },
      graceMs: 0,
      batch: 100,
      now: anHourLater,
    });

    expect(result.removed).toEqual([]);
    expect(await store.list('c/')).toEqual(['c/unknown']);
  });

  it('when a pass reaches its batch size, then it stops there and the next pass goes on after it', async () => {
    await Promise.all(['d/1', 'd/2', 'd/3'].map(put));
    const sweep = (startAfter?: string) =>
      sweepOrphanObjects({
        store,
        logger,
        prefix: 'd/',
        isReferenced: async () => false,
        graceMs: 0,
        batch: 2,
        startAfter,
        now: anHourLater,
      });

    const first = await sweep();
    const second = await sweep(first.next);

    expect(first).toEqual({ scanned: 2, removed: ['d/1', 'd/2'], next: 'd/2' });
    expect(second).toEqual({ scanned: 1, removed: ['d/3'], next: undefined });
    expect(await store.list('d/')).toEqual([]);
  });
});
