import { readList, storeList } from './stored-list';

describe('a list stored as one string', () => {
  it('reads back the list it stored as one string, whatever characters its items hold', () => {
    const items = [
      { id: 'a', full: 'ünïcödé "quoted" \\ text, line\nbreak 😀' },
      { id: 'b', full: '' },
    ];
    const stored = storeList(items);
    expect(typeof stored).toBe('string');
    expect(readList(stored)).toEqual(items);
  });

  it('reads a list stored before as the list itself, and nothing as empty', () => {
    expect(readList(['ab', 'b c'])).toEqual(['ab', 'b c']);
    expect(readList(undefined)).toEqual([]);
    expect(readList(null)).toEqual([]);
  });

  it('stores any iterable, a set of grams included', () => {
    expect(readList(storeList(new Set(['abc', 'bcd'])))).toEqual(['abc', 'bcd']);
  });
});
