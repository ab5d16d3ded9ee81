import type { SearchItem } from './layout';
import { SearchPageCache } from './page-cache';

const item = (id: string): SearchItem => ({
  id,
  t: 1,
  title: 'title',
  content: 'c'.repeat(100),
  contentType: 'text',
  model: 'gpt-4o',
  language: 'en',
  userId: 'u',
  workspaceId: 1,
  promptId: null,
  parentId: null,
  metadata: '{}',
  s: 's'.repeat(1000),
});
const page = (n: number) => Array.from({ length: 10 }, (_, i) => item(`${n}-${i}`));
const PAGE_BYTES = new SearchPageCache(1e9);
PAGE_BYTES.set('probe', 1, page(0));
const onePage = PAGE_BYTES.bytes;

describe('search page cache', () => {
  it('when a page changed (another version), then it is not served', () => {
    const cache = new SearchPageCache(10 * onePage);
    cache.set('a', 1, page(1));

    expect(cache.get('a', 1)).toHaveLength(10);
    expect(cache.get('a', 2)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('when a reader with an older head asks for a page written since, then the newer page stays', () => {
    const cache = new SearchPageCache(10 * onePage);
    cache.set('a', 2, page(2));

    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('a', 2)).toHaveLength(10);
  });

  it('when a page is dropped, then it is gone and its bytes are given back', () => {
    const cache = new SearchPageCache(10 * onePage);
    cache.set('a', 1, page(1));
    cache.drop('a');

    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('when more pages than fit are kept, then the least recently used go and the budget holds', () => {
    const cache = new SearchPageCache(3 * onePage);
    for (const id of ['a', 'b', 'c']) cache.set(id, 1, page(1));
    cache.get('a', 1);
    cache.set('d', 1, page(1));

    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(3 * onePage);
  });

  it('when repeated scans are longer than the cache, then the pages read first stay cached', () => {
    const cache = new SearchPageCache(3 * onePage);
    const scanAll = () => {
      const scan = cache.newScan();
      let misses = 0;
      for (const id of ['p5', 'p4', 'p3', 'p2', 'p1']) {
        if (cache.get(id, 1, scan)) continue;
        misses++;
        cache.set(id, 1, page(1), scan);
      }
      return misses;
    };

    expect(scanAll()).toBe(5);
    expect(scanAll()).toBe(2);
    expect(scanAll()).toBe(2);
  });
});
