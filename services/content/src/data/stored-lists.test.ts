import { APPLIED_MEMORY, decodeVersions, encodeVersions, hasApplied, withApplied } from './layout';

describe('the operations a counters document remembers', () => {
  it('when operations are added, then each is found whole and none by a part of it', () => {
    const applied = withApplied(withApplied('', '+a1'), 'r2:a1');

    expect(applied).toBe('+a1 r2:a1');
    expect(hasApplied(applied, '+a1')).toBe(true);
    expect(hasApplied(applied, 'r2:a1')).toBe(true);
    expect(hasApplied(applied, '+a')).toBe(false);
    expect(hasApplied(applied, 'a1')).toBe(false);
    expect(hasApplied('', '+a1')).toBe(false);
  });

  it('when a document holds them as a list (written before), then they are found and kept', () => {
    const old = ['+a1', '-a1'];

    expect(hasApplied(old, '-a1')).toBe(true);
    expect(hasApplied(old, '+b2')).toBe(false);
    expect(withApplied(old, '+b2')).toBe('+a1 -a1 +b2');
  });

  it('when more than the memory holds are added, then the oldest go', () => {
    let applied = '';
    for (let i = 0; i <= APPLIED_MEMORY; i++) applied = withApplied(applied, `+c${i}`);

    expect(hasApplied(applied, '+c0')).toBe(false);
    expect(hasApplied(applied, '+c1')).toBe(true);
    expect(hasApplied(applied, `+c${APPLIED_MEMORY}`)).toBe(true);
    expect(applied.split(' ')).toHaveLength(APPLIED_MEMORY);
  });
});

describe('page versions as stored', () => {
  it('when versions are stored, then each page reads back at its version and pages without one stay absent', () => {
    const v = { 0: 1, 2: 37, 3: 1_000_000, 10: 2 };

    const stored = encodeVersions(v);

    expect(stored).toBe('1,,11,lfls,,,,,,,2');
    expect(decodeVersions(stored)).toEqual(v);
    expect(decodeVersions(encodeVersions({}))).toEqual({});
  });

  it('when a document holds them as a map (written before) or none, then they are read alike', () => {
    expect(decodeVersions({ 0: 4, 7: 2 })).toEqual({ 0: 4, 7: 2 });
    expect(decodeVersions(undefined)).toEqual({});
  });
});
