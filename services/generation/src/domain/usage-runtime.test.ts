import { createSettleTracker, createSpentBatcher, type SpentStore } from './usage-runtime';

/** A chain in memory that counts its reads and inserts; `rival` writes first once when set. */
function memoryChain() {
  const versions: { n: number; value: { spent: number } }[] = [];
  const counts = { reads: 0, appends: 0 };
  let rival: number | null = null;
  const store: SpentStore = {
    async latest() {
      counts.reads++;
      await new Promise((resolve) => setTimeout(resolve, 2));
      return versions.at(-1) ?? null;
    },
    async append(_chain, n, value) {
      counts.appends++;
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (rival !== null) {
        versions.push({ n, value: { spent: (versions.at(-1)?.value.spent ?? 0) + rival } });
        rival = null;
        return false;
      }
      if (versions.length + 1 !== n) return false;
      versions.push({ n, value });
      return true;
    },
  };
  return {
    store,
    counts,
    versions,
    rivalWrites: (delta: number) => (rival = delta),
    spent: () => versions.at(-1)?.value.spent ?? 0,
  };
}

describe('month counters written in batches', () => {
  it('when 50 calls add to one counter at once, then the sum is exact and far fewer versions are written', async () => {
    const chain = memoryChain();
    const spent = createSpentBatcher(chain.store);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => spent.add('c', i + 1, null)),
    );
    expect(answers.every(Boolean)).toBe(true);
    expect(chain.spent()).toBe((50 * 51) / 2);
    expect(chain.counts.appends).toBeLessThan(5);
  });

  it('when calls race at a limit, then the ones after the limit is reached are refused in order', async () => {
    const chain = memoryChain();
    const spent = createSpentBatcher(chain.store);
    const answers = await Promise.all(Array.from({ length: 10 }, () => spent.add('c', 40, 100)));
    // 0, 40 and 80 are under 100: three are taken, the counter may pass the limit by one call.
    expect(answers.filter(Boolean)).toHaveLength(3);
    expect(answers.slice(0, 3)).toEqual([true, true, true]);
    expect(chain.spent()).toBe(120);
    // A refund is never refused.
    expect(await spent.add('c', -40, 100)).toBe(true);
    expect(chain.spent()).toBe(80);
  });

  it('when another replica writes the counter first, then the batch is decided again on its value', async () => {
    const chain = memoryChain();
    const spent = createSpentBatcher(chain.store);
    chain.rivalWrites(90);
    const answers = await Promise.all([spent.add('c', 40, 100), spent.add('c', 40, 100)]);
    expect(answers).toEqual([true, false]);
    expect(chain.spent()).toBe(130);
  });

  it('when the store fails, then every call of the batch fails and the next batch goes on', async () => {
    const chain = memoryChain();
    const spent = createSpentBatcher(chain.store);
    const failing = chain.store.latest;
    chain.store.latest = () => Promise.reject(new Error('store down'));
    await expect(spent.add('c', 1, null)).rejects.toThrow('store down');
    chain.store.latest = failing;
    expect(await spent.add('c', 2, null)).toBe(true);
    expect(chain.spent()).toBe(2);
  });
});

describe('settles after the answer', () => {
  it('when a workspace has settles running, then its readers wait for them and no other workspace waits', async () => {
    const settles = createSettleTracker();
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (finish = resolve));
    settles.track(1, running);
    let drained = false;
    const waiting = settles.drain(1).then(() => (drained = true));
    await settles.drain(2);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(drained).toBe(false);
    finish();
    await waiting;
    expect(drained).toBe(true);
  });

  it('when a settle fails, then draining still ends', async () => {
    const settles = createSettleTracker();
    settles.track(1, Promise.reject(new Error('lost')));
    await expect(settles.drain()).resolves.toBeUndefined();
  });
});
