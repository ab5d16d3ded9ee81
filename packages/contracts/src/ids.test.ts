import { EntityId, WorkspaceId } from './ids';

describe('WorkspaceId', () => {
  it.each([
    [1, 1],
    ['42', 42],
    [' 7 ', 7],
  ])('when %p is given, then it is the number %p', (input, expected) => {
    expect(WorkspaceId.parse(input)).toBe(expected);
  });

  it.each([0, -1, 1.5, '0', '-1', '1e3', 'abc', '', true, null, undefined])(
    'when %p is given, then it is refused with one clear message',
    (input) => {
      const result = WorkspaceId.safeParse(input);

      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        'Workspace id must be an integer of at least 1',
      ]);
    },
  );
});

describe('EntityId', () => {
  it.each([
    '65f1c0ffee0000000000abcd',
    '3b241101-e2bb-4255-8caf-4136c566a962',
    'V1StGXR8_Z5jdHi6B-myT',
  ])('when %p is given, then it is accepted', (id) => {
    expect(EntityId.parse(id)).toBe(id);
  });

  it.each(['', 'a'.repeat(65), '$where', 'a.b', '../x', 'a b'])(
    'when %p is given, then it is refused',
    (id) => {
      expect(EntityId.safeParse(id).success).toBe(false);
    },
  );
});
