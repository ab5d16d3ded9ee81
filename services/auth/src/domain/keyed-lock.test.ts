import { keyedLock } from './keyed-lock';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('keyedLock', () => {
  it('when tasks share a key, then they run one after another, even when one fails', async () => {
    const lock = keyedLock();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };

    const results = await Promise.allSettled([
      lock.run('k', task('a', true)),
      lock.run('k', task('b')),
    ]);

    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
  });

  it('when tasks have different keys, then they run side by side', async () => {
    const lock = keyedLock();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };

    await Promise.all([lock.run('a', task('a')), lock.run('b', task('b'))]);

    expect(log.slice(0, 2)).toEqual(['a start', 'b start']);
  });
});
