import { createTtlCache } from './ttl-cache';

/** A loader that answers `answers` in turn (or fails when one is an Error), counting calls. */
function loader<T>(...answers: Array<T | Error>) {
  let calls = 0;
  const load = () => {
    const answer = answers[Math.min(calls, answers.length - 1)];
    calls += 1;
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer as T);
  };
  return { load, calls: () => calls };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the time-to-live cache, stale while it is read again', () => {
  it('when its time to live has passed, then the old value answers at once while one read in the background replaces it', async () => {
    let t = 0;
    const cache = createTtlCache<string>(1_000, { now: () => t, staleMs: 10_000 });
    const { load, calls } = loader('v1', 'v2');
    expect(await cache.get('k', load)).toBe('v1');

    t = 1_500;
    const during = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(during).toEqual(['v1', 'v1']);
    expect(calls()).toBe(2); // the first load and ONE read in the background
    await tick();

    expect(await cache.get('k', load)).toBe('v2');
    expect(calls()).toBe(2);
  });

  it('when the reads in the background fail, then the old value answers until the stale time is over, and then readers wait for a load', async () => {
    let t = 0;
    const cache = createTtlCache<string>(1_000, { now: () => t, staleMs: 5_000 });
    const { load } = loader<string>('v1', new Error('down'), new Error('down'), 'v3');
    await cache.get('k', load);

    t = 2_000;
    expect(await cache.get('k', load)).toBe('v1');
    await tick();
    t = 5_000;
    expect(await cache.get('k', load)).toBe('v1');
    await tick();

    t = 6_500; // past 1 s + 5 s
    expect(await cache.get('k', load)).toBe('v3');
  });

  it('when the key is dropped while a read in the background is under way, then that read is not kept', async () => {
    let t = 0;
    const cache = createTtlCache<string>(1_000, { now: () => t, staleMs: 10_000 });
    let release: (value: string) => void = () => undefined;
    const slow = () => new Promise<string>((resolve) => (release = resolve));
    await cache.get('k', () => Promise.resolve('v1'));

    t = 1_500;
    expect(await cache.get('k', slow)).toBe('v1');
    cache.drop('k');
    release('from before the change');
    await tick();

    expect(await cache.get('k', () => Promise.resolve('after'))).toBe('after');
  });

  it('when no stale time is set, then past its time to live a reader waits for the new value', async () => {
    let t = 0;
    const cache = createTtlCache<string>(1_000, { now: () => t });
    const { load } = loader('v1', 'v2');
    await cache.get('k', load);

    t = 1_500;
    expect(await cache.get('k', load)).toBe('v2');
  });

  it('when a value is refused by keep, then it is never answered stale', async () => {
    const t = 0;
    const cache = createTtlCache<string>(1_000, {
      now: () => t,
      staleMs: 10_000,
      keep: (v) => v !== 'missing',
    });
    const { load, calls } = loader('missing', 'found');
    expect(await cache.get('k', load)).toBe('missing');
    await tick();

    expect(await cache.get('k', load)).toBe('found');
    expect(calls()).toBe(2);
  });
});
