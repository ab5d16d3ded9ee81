import { KeyedLock } from './keyed-lock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedLock', () => {
  it('when work for one key overlaps, then it runs one at a time in arrival order', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (name: string, ms: number) =>
      lock.run('k', async () => {
        log.push(`start ${name}`);
        await sleep(ms);
        log.push(`end ${name}`);
      });

    await Promise.all([job('a', 20), job('b', 1), job('c', 1)]);

    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(lock.size).toBe(0);
  });

  it('when work fails, then the next work for the key still runs', async () => {
    const lock = new KeyedLock();

    const failed = lock.run('k', async () => {
      throw new Error('boom');
    });
    const next = lock.run('k', async () => 'ran');

    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('when keys differ, then their work runs side by side', async () => {
    const lock = new KeyedLock();
    let running = 0;
    let most = 0;
    const job = (key: string) =>
      lock.run(key, async () => {
        most = Math.max(most, ++running);
        await sleep(10);
        running--;
      });

    await Promise.all([job('a'), job('b'), job('c')]);

    expect(most).toBe(3);
  });
});
