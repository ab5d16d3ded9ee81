import {
  generatedImageFileName,
  groupConversations,
  historyPreview,
  historyTitle,
  imageDownloadName,
  parseMetadata,
  rebuildConversation,
  relativeTime,
} from './content-rules';

describe('content display rules', () => {
  it('when a title is longer than 60 characters, then it is cut at 60 and marked', () => {
    const long = 'a'.repeat(61);
    expect(historyTitle(long)).toBe(`${'a'.repeat(60)}...`);
    expect(historyTitle('a'.repeat(60))).toBe('a'.repeat(60));
    expect(historyTitle('Short')).toBe('Short');
  });

  it('when a preview is built, then a text shows its first 80 characters and an image a label', () => {
    const text = 'x'.repeat(100);
    expect(historyPreview({ contentType: 'text', content: text })).toBe(`${'x'.repeat(80)}...`);
    expect(historyPreview({ contentType: 'text', content: 'Hello' })).toBe('Hello');
    expect(historyPreview({ contentType: 'image', content: '/api/images/c1?workspaceId=1' })).toBe(
      'Image generated',
    );
  });

  it('when a relative time is asked, then it reads like "5 minutes ago"', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
    expect(relativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(relativeTime(ago(60), now)).toBe('1 minute ago');
    expect(relativeTime(ago(20), now)).toBe('less than a minute ago');
    expect(relativeTime(ago(3 * 3600 + 100), now)).toBe('3 hours ago');
    expect(relativeTime(ago(2 * 86400), now)).toBe('2 days ago');
    expect(relativeTime(ago(400 * 86400), now)).toBe('1 year ago');
    expect(relativeTime(ago(-30), now)).toBe('less than a minute ago');
  });

  it('when a history image is downloaded, then its name is the lower-cased title with hyphens, .jpg', () => {
    expect(imageDownloadName('Summer Sale  Banner')).toBe('summer-sale-banner.jpg');
    expect(imageDownloadName('   ')).toBe('image.jpg');
  });

  it('when a generated image is downloaded, then the name is a timestamp, .png only for gpt-image-1', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(generatedImageFileName('gpt-image-1', now)).toBe(`generated-image-${now.getTime()}.png`);
    expect(generatedImageFileName('dall-e-3', now)).toBe(`generated-image-${now.getTime()}.jpg`);
  });

  it('when metadata is a JSON string, an object or junk, then it reads as an object', () => {
    expect(parseMetadata('{"originalMessage":"hi"}')).toEqual({ originalMessage: 'hi' });
    expect(parseMetadata({ inputs: { message: 'x' } })).toEqual({ inputs: { message: 'x' } });
    expect(parseMetadata('not json')).toEqual({});
    expect(parseMetadata(null)).toEqual({});
    expect(parseMetadata('[1]')).toEqual({});
  });

  it('when a thread is rebuilt, then the first item asks with inputs.message and later ones with originalMessage', () => {
    const messages = rebuildConversation([
      { content: 'Answer 1', metadata: { inputs: { message: 'Question 1' } } },
      { content: 'Answer 2', metadata: JSON.stringify({ originalMessage: 'Question 2' }) },
      { content: 'Answer 3', metadata: {} },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'Question 1' },
      { role: 'assistant', content: 'Answer 1' },
      { role: 'user', content: 'Question 2' },
      { role: 'assistant', content: 'Answer 2' },
      { role: 'assistant', content: 'Answer 3' },
    ]);
  });

  it('when the first item has an originalMessage but no inputs.message, then it has no user message', () => {
    expect(
      rebuildConversation([{ content: 'Only answer', metadata: { originalMessage: 'ignored' } }]),
    ).toEqual([{ role: 'assistant', content: 'Only answer' }]);
  });

  it('when turns are grouped, then each conversation is one row with its latest turn, also across an unloaded parent', () => {
    const turn = (id: string, parentId?: string) => ({ id, ...(parentId ? { parentId } : {}) });
    // newest first; a1's parent a0 is on a page not loaded yet
    const rows = groupConversations([
      turn('a3', 'a2'),
      turn('b1'),
      turn('a2', 'a1'),
      turn('a1', 'a0'),
      turn('c2', 'c1'),
    ]);
    expect(rows.map((row) => [row.latest.id, row.turns])).toEqual([
      ['a3', 3],
      ['b1', 1],
      ['c2', 1],
    ]);
    expect(rows[0]!.ids).toEqual(['a3', 'a2', 'a1']);
  });
});
