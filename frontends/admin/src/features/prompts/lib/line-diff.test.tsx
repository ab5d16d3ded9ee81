import { lineDiff, type DiffLine } from './line-diff';

// The line diff of the Versions card (issue 18): what an admin reads as "-" and "+" lines.

const show = (lines: DiffLine[]) =>
  lines.map(({ kind, text }) => `${{ same: ' ', removed: '-', added: '+' }[kind]}${text}`);

describe('lineDiff', () => {
  it('when the texts are equal, then every line is kept and none is marked', () => {
    expect(show(lineDiff('a\nb', 'a\nb'))).toEqual([' a', ' b']);
  });

  it('when a line changed between others, then the old line is removed and the new one added in place', () => {
    expect(
      show(lineDiff('Hello\nWrite about {topic}\nBye', 'Hello\nWrite on {topic}\nBye')),
    ).toEqual([' Hello', '-Write about {topic}', '+Write on {topic}', ' Bye']);
  });

  it('when lines are inserted and deleted at different places, then only those lines are marked', () => {
    expect(show(lineDiff('one\ntwo\nthree\nfour', 'zero\none\nthree\nfour\nfive'))).toEqual([
      '+zero',
      ' one',
      '-two',
      ' three',
      ' four',
      '+five',
    ]);
  });

  it('when the texts use Windows line ends, then lines still match', () => {
    expect(show(lineDiff('a\r\nb', 'a\nc'))).toEqual([' a', '-b', '+c']);
  });

  it('when the changed middle is too large to align, then it shows as removed then added, keeping common ends', () => {
    const many = (prefix: string) => Array.from({ length: 1500 }, (_, i) => `${prefix}${i}`);
    const lines = lineDiff(
      ['top', ...many('x'), 'end'].join('\n'),
      ['top', ...many('y'), 'end'].join('\n'),
    );
    expect(lines[0]).toEqual({ kind: 'same', text: 'top' });
    expect(lines.at(-1)).toEqual({ kind: 'same', text: 'end' });
    expect(lines.filter((l) => l.kind === 'removed')).toHaveLength(1500);
    expect(lines.filter((l) => l.kind === 'added')).toHaveLength(1500);
    expect(lines[1]).toEqual({ kind: 'removed', text: 'x0' });
  });
});
