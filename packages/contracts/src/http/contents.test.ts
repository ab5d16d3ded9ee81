import { ContentItem } from '../entities/content';
import { ListContentsQuery } from './contents';

function buildContentItem(overrides: Record<string, unknown> = {}) {
  return {
    id: 'c1',
    title: 'Hello',
    content: 'Hi there',
    contentType: 'text',
    model: 'gpt-4o',
    userId: 'u1',
    metadata: {},
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('ListContentsQuery', () => {
  it('when the query is empty, then the limit is 20 and there is no search', () => {
    expect(ListContentsQuery.parse({})).toEqual({ limit: 20 });
  });

  it('when query strings are sent, then they are typed', () => {
    expect(
      ListContentsQuery.parse({
        workspaceId: '2',
        type: 'image',
        q: ' cat ',
        limit: '50',
        cursor: 'abc',
      }),
    ).toEqual({ workspaceId: 2, type: 'image', q: 'cat', limit: 50, cursor: 'abc' });
  });

  it('when the search is blank, then there is no search', () => {
    expect(ListContentsQuery.parse({ q: '   ' }).q).toBeUndefined();
  });

  it.each(['0', '101', '2.5', 'abc'])('when the limit is %p, then it is refused', (limit) => {
    expect(ListContentsQuery.safeParse({ limit }).success).toBe(false);
  });

  it.each(['1', '100'])('when the limit is %p, then it is accepted', (limit) => {
    expect(ListContentsQuery.safeParse({ limit }).success).toBe(true);
  });

  it('when the type is not text or image, then it is refused', () => {
    expect(ListContentsQuery.safeParse({ type: 'chat' }).success).toBe(false);
  });
});

describe('ContentItem', () => {
  it('when metadata arrives as a JSON string, then it is read as an object', () => {
    const item = ContentItem.parse(buildContentItem({ metadata: '{"inputs":{"message":"Hoi"}}' }));

    expect(item.metadata.inputs?.message).toBe('Hoi');
  });

  it('when metadata is not valid JSON, then the item is refused', () => {
    expect(ContentItem.safeParse(buildContentItem({ metadata: '{oops' })).success).toBe(false);
  });

  it('when the language is absent, then it is en', () => {
    expect(ContentItem.parse(buildContentItem()).language).toBe('en');
  });
});
