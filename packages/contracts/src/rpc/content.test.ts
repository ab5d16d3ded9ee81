import { attachmentUrl, GeneratedContent, generatedImageKey, generatedImageUrl } from './content';

const base = {
  id: 'c1',
  workspaceId: 3,
  userId: 'u1',
  title: 'Spring launch',
  content: 'Hello',
  contentType: 'text',
  model: 'gpt-4o',
  language: 'nl',
  promptId: 'p1',
  parentId: null,
  threadId: 'c1',
  metadata: '{"inputs":{"message":"Hi"}}',
  usage: { promptTokens: 12, completionTokens: 30 },
  createdAt: '2026-11-22T10:00:00.000Z',
};

describe('GeneratedContent', () => {
  it('when metadata arrives as a JSON string and usage lacks images, then both are normalised', () => {
    const parsed = GeneratedContent.parse(base);
    expect(parsed.metadata).toEqual({ inputs: { message: 'Hi' } });
    expect(parsed.usage).toEqual({ promptTokens: 12, completionTokens: 30, images: 0 });
  });

  it('when the id carries characters a key could abuse, then it is refused', () => {
    expect(GeneratedContent.safeParse({ ...base, id: '../etc' }).success).toBe(false);
  });
});

describe('generatedImageUrl / attachmentUrl', () => {
  it('when a workspace is given, then the URL names it for the gateway', () => {
    expect(generatedImageUrl('c1', 3)).toBe('/api/images/c1?workspaceId=3');
    expect(attachmentUrl('a1', 3)).toBe('/api/uploads/chat-attachments/a1?workspaceId=3');
  });

  it('when there is no workspace, then the URL has no query', () => {
    expect(generatedImageUrl('c1', null)).toBe('/api/images/c1');
  });
});

describe('generatedImageKey', () => {
  it('when images already stored are read back, then the key is the one the generation service has always written', () => {
    expect(generatedImageKey(3, 'c1')).toBe('workspaces/3/images/c1');
    expect(generatedImageKey(null, 'c1')).toBe('workspaces/none/images/c1');
  });
});
