import { KeyedLock } from './keyed-lock';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedLock', () => {
  it('when work for one key overlaps, then it runs one at a time in arrival order', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (name: string) =>
      lock.run('k', async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
      });

    await Promise.all([job('a'), job('b'), job('c')]);

    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(lock.size).toBe(0);
  });

  it('when work for different keys overlaps, then it runs side by side', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const job = (key: string) =>
      lock.run(key, async () => {
        log.push(`${key} start`);
        await tick();
        log.push(`${key} end`);
      });

    await Promise.all([job('x'), job('y')]);

    expect(log.slice(0, 2).sort()).toEqual(['x start', 'y start']);
  });

  it('when work fails, then the error reaches its caller and the next work still runs', async () => {
    const lock = new KeyedLock();

    const failed = lock.run('k', async () => {
      throw new Error('boom');
    });
    const next = lock.run('k', async () => 'ran');

    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });
});
