import mongoose, { type Connection, type mongo } from 'mongoose';
import { readsDuring, recordScansOnMiss, serviceTestEnv } from '../testing';
import { createChain, linkId } from './chain';

jest.setTimeout(60_000);

let conn: Connection;

beforeAll(async () => {
  conn = await mongoose
    .createConnection(serviceTestEnv('kit-chain').MONGO_URL!, { monitorCommands: true })
    .asPromise();
});
afterAll(async () => {
  await conn.dropDatabase().catch(() => undefined);
  await conn.close();
});

/** The collection as a slow engine under load serves it: every read by `_id` takes a while. */
function slowReads(collection: mongo.Collection): mongo.Collection {
  return new Proxy(collection, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'findOne' || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
        return value.apply(target, args);
      };
    },
  });
}

/** Reads the latest count and writes count+1 as the next version, again until it wins. */
async function increment(chain: ReturnType<typeof createChain<{ count: number }>>, name: string) {
  for (;;) {
    const latest = await chain.latest(name);
    if (await chain.append(name, (latest?.n ?? 0) + 1, { count: (latest?.value.count ?? 0) + 1 }))
      return;
  }
}

describe('a chain of versions', () => {
  it('when many writers in several processes race while old versions go, then no write is lost', async () => {
    const collection = conn.collection('chain_race') as unknown as mongo.Collection;
    // Three processes (each remembers what it has seen), one kept version behind the latest.
    const processes = Array.from({ length: 3 }, () =>
      createChain<{ count: number }>(slowReads(collection), { keep: 1 }),
    );

    await Promise.all(Array.from({ length: 40 }, (_, i) => increment(processes[i % 3]!, 'race')));

    const fresh = createChain<{ count: number }>(collection, { keep: 1 });
    const latest = await fresh.latest('race');
    expect(latest?.value.count).toBe(40);
    expect(latest?.n).toBe(40);
  });

  it('when the versions behind the kept ones are read, then they are gone but the latest is whole', async () => {
    const collection = conn.collection('chain_keep') as unknown as mongo.Collection;
    const chain = createChain<{ count: number }>(collection, { keep: 2 });
    for (let i = 0; i < 6; i++) await increment(chain, 'kept');

    expect(await collection.findOne({ _id: linkId('kept', 6) } as never)).toMatchObject({
      value: { count: 6 },
    });
    expect(await collection.findOne({ _id: linkId('kept', 5) } as never)).toMatchObject({
      value: { count: 5 },
    });
    for (const n of [1, 4]) {
      const old = await collection.findOne({ _id: linkId('kept', n) } as never);
      expect(old?.value).toBeUndefined();
    }
  });

  it('when a slow writer aims at a version that was dropped behind a later one, then it is refused and only the later one stays', async () => {
    const collection = conn.collection('chain_dropped') as unknown as mongo.Collection;
    const chain = createChain<{ count: number }>(collection, { keep: 5, dropsBefore: true });
    for (let i = 0; i < 4; i++) await increment(chain, 'closed');
    // A writer read version 2 a while ago; meanwhile 5 was written and everything before it went.
    await chain.append('closed', 5, { count: 99 });
    await chain.dropBefore('closed', 5);

    expect(await chain.append('closed', 3, { count: 3 })).toBe(false);

    expect(await collection.countDocuments({ chain: 'closed' })).toBe(1);
    expect((await chain.latest('closed'))?.value.count).toBe(99);
  });

  it('when old versions still hold unpublished events, then appends keep them whole and address nothing that is not there (FerretDB would scan the collection)', async () => {
    const collection = conn.collection('chain_pending') as unknown as mongo.Collection;
    const chain = createChain<{ count: number }>(collection, { keep: 2 });
    // Some history, so that a scan would have something to read.
    for (let i = 0; i < 30; i++) await chain.append(`other-${i}`, 1, { count: 1 });
    const scans = recordScansOnMiss(conn.getClient());
    const pending = [{ id: 'e' }];

    // Versions 1 and 3 carry events nobody published yet; 2 had its events published.
    await chain.append('pending', 1, { count: 1 }, { _outbox: pending });
    await chain.append('pending', 2, { count: 2 }, { _outbox: [] });
    await chain.append('pending', 3, { count: 3 }, { _outbox: pending });
    for (let n = 4; n <= 6; n++) await chain.append('pending', n, { count: n });
    scans.stop();

    const stored = async (n: number) => collection.findOne({ _id: linkId('pending', n) } as never);
    expect(await stored(1)).toMatchObject({ value: { count: 1 }, _outbox: pending });
    expect(await stored(3)).toMatchObject({ value: { count: 3 }, _outbox: pending });
    expect(await stored(2)).toMatchObject({ gone: true });
    expect((await stored(2))?.value).toBeUndefined();
    expect((await stored(4))?.value).toBeUndefined();
    expect((await chain.latest('pending'))?.value.count).toBe(6);
    expect(scans.misses).toEqual([]);
  });

  describe('that keeps its latest version in the process (latestCache)', () => {
    it('when nobody wrote since its last write, then the latest is found by reading only the next version', async () => {
      const collection = conn.collection('chain_kept_latest') as unknown as mongo.Collection;
      const chain = createChain<{ count: number }>(collection, { keep: 2, latestCache: 10 });
      for (let i = 0; i < 5; i++) await increment(chain, 'counter');

      let latest: Awaited<ReturnType<typeof chain.latest>> = null;
      const reads = await readsDuring(conn.getClient(), 'chain_kept_latest', async () => {
        latest = await chain.latest('counter');
      });

      expect(latest!.value.count).toBe(5);
      expect(reads).toEqual([linkId('counter', 6)]);
    });

    it('when other processes write meanwhile, then every increment counts and each process sees the last', async () => {
      const collection = conn.collection('chain_kept_race') as unknown as mongo.Collection;
      const processes = Array.from({ length: 3 }, () =>
        createChain<{ count: number }>(slowReads(collection), { keep: 1, latestCache: 10 }),
      );

      await Promise.all(
        Array.from({ length: 30 }, (_, i) => increment(processes[i % 3]!, 'shared')),
      );

      for (const chain of processes) expect((await chain.latest('shared'))?.value.count).toBe(30);
      // Versions behind the kept one were emptied without being read first.
      expect((await collection.findOne({ _id: linkId('shared', 10) } as never))?.value).toBe(
        undefined,
      );
    });

    it('when its head moves every few versions only, then a process new to it still finds the latest, and the head is written that often', async () => {
      const collection = conn.collection('chain_head_every') as unknown as mongo.Collection;
      const writer = createChain<{ count: number }>(collection, {
        keep: 16,
        latestCache: 10,
        headEvery: 4,
      });
      let headWrites = 0;
      const onStarted = (event: mongo.CommandStartedEvent) => {
        const command = event.command as { update?: string; updates?: { q: { _id: string } }[] };
        if (command.update === 'chain_head_every' && command.updates?.[0]?.q._id === 'sparse')
          headWrites++;
      };
      conn.getClient().on('commandStarted', onStarted);
      try {
        for (let i = 0; i < 10; i++) await increment(writer, 'sparse');
      } finally {
        conn.getClient().off('commandStarted', onStarted);
      }

      const fresh = createChain<{ count: number }>(collection, { keep: 16, headEvery: 4 });
      expect((await fresh.latest('sparse'))?.value.count).toBe(10);
      expect(headWrites).toBe(2); // versions 4 and 8
      expect(() => createChain(collection, { keep: 4, headEvery: 4 })).toThrow('below keep');
    });

    it('when asked to drop it or to carry events, then it refuses', async () => {
      const collection = conn.collection('chain_kept_refusals') as unknown as mongo.Collection;
      const chain = createChain<{ count: number }>(collection, { keep: 2, latestCache: 10 });

      await expect(chain.drop('x')).rejects.toThrow('never dropped');
      await expect(chain.append('x', 1, { count: 1 }, { _outbox: [{ id: 'e' }] })).rejects.toThrow(
        'carries no events',
      );
      expect(() =>
        createChain(collection, { keep: 2, latestCache: 10, dropsBefore: true }),
      ).toThrow('dropsBefore');
    });
  });
});
