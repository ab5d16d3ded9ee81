import { LruCache } from './lru-cache';

describe('LruCache', () => {
  it('when full, then the least recently used entry goes first', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a'); // a is now the most recent

    cache.set('c', 3);

    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('when a key is set again, then it is replaced without growing the cache', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('a', 2);

    expect(cache.get('a')).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('when the bound is not a positive integer, then it refuses to exist', () => {
    expect(() => new LruCache(0)).toThrow();
  });
});
