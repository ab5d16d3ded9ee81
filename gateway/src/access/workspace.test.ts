import { namedWorkspaces } from './workspace';

describe('namedWorkspaces', () => {
  it.each([
    ['no header, no query', undefined, '', { ok: true, ws: null, all: [] }],
    ['the header', '3', '', { ok: true, ws: 3, all: [3] }],
    ['the header with spaces', ' 3 ', '', { ok: true, ws: 3, all: [3] }],
    ['the query', undefined, 'a=1&workspaceId=4', { ok: true, ws: 4, all: [4] }],
    ['header and query, header first', '3', 'workspaceId=4', { ok: true, ws: 3, all: [3, 4] }],
    ['the same id twice', '3', 'workspaceId=3', { ok: true, ws: 3, all: [3] }],
    ['an encoded query key', undefined, 'workspace%49d=5', { ok: true, ws: 5, all: [5] }],
    [
      'the array form of the query',
      undefined,
      'workspaceId%5B%5D=6&workspaceId[1]=7',
      { ok: true, ws: 6, all: [6, 7] },
    ],
    [
      '"no workspace" spelled by a front-end',
      undefined,
      'workspaceId=&workspaceId=null&workspaceId=undefined',
      { ok: true, ws: null, all: [] },
    ],
    [
      'another parameter that merely looks alike',
      undefined,
      'myworkspaceId=9&workspaceIds=8',
      { ok: true, ws: null, all: [] },
    ],
  ])('when a request has %s, then it names what it names', (_what, header, query, expected) => {
    expect(namedWorkspaces(header, query)).toEqual(expected);
  });

  it.each([
    ['a word in the header', 'abc', ''],
    ['zero', '0', ''],
    ['a negative id', '-2', ''],
    ['a fraction', '1.5', ''],
    ['the header sent twice', '1, 2', ''],
    ['two header values', ['1', '2'], ''],
    ['an id past the safe integers', '9007199254740993', ''],
    ['a word in the query', undefined, 'workspaceId=abc'],
    ['a good header and a bad query', '1', 'workspaceId=x'],
  ])('when a request has %s, then it is malformed', (_what, header, query) => {
    expect(namedWorkspaces(header, query)).toEqual({
      ok: false,
      message: 'Workspace id must be an integer of at least 1',
    });
  });
});
