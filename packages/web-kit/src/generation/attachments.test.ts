import * as contracts from '@aict/contracts';
import {
  UploadError,
  checkChatAttachments,
  formatFileSize,
  uploadChatAttachments,
} from './attachments';

const MB = 1024 * 1024;
const file = (name: string, type: string, size: number) => ({ name, type, size });

describe('checkChatAttachments (copy of @aict/contracts)', () => {
  const samples = [
    [],
    [file('a.png', 'image/png', 10)],
    [file('a.gif', 'image/gif', 10)],
    [file('a.pdf', 'application/pdf', 10 * MB)],
    [file('a.pdf', 'application/pdf', 10 * MB - 1)],
    Array.from({ length: 11 }, (_, i) => file(`f${i}.txt`, 'text/plain', 1)),
    Array.from({ length: 4 }, (_, i) => file(`f${i}.pdf`, 'application/pdf', 8 * MB)),
    [file('a.TXT', 'Text/Plain; charset=utf-8', 5)],
  ];

  it('when sample file sets are checked, then each answer equals the original rule', () => {
    for (const files of samples) {
      expect(checkChatAttachments(files)).toEqual(contracts.checkChatAttachments(files));
    }
  });

  it('when a file type is not allowed, then the SPEC §5 title and text come back', () => {
    expect(checkChatAttachments([file('x.gif', 'image/gif', 1)])).toMatchObject({
      title: 'Invalid file type',
      description: 'Only PNG, JPG, JPEG, WebP, PDF, DOC, DOCX, and TXT files are allowed.',
    });
  });

  it('when sizes are formatted, then they read as Bytes/KB/MB/GB with at most 2 decimals like the original', () => {
    for (const bytes of [
      0,
      1,
      512,
      1024,
      1536,
      1234567,
      10 * MB,
      3.5 * 1024 * MB,
      -1,
      Number.NaN,
    ]) {
      expect(formatFileSize(bytes)).toBe(contracts.formatFileSize(bytes));
    }
    expect(formatFileSize(1234567)).toBe('1.18 MB');
  });
});

describe('uploadChatAttachments', () => {
  const scope = globalThis as unknown as { window?: unknown };
  beforeEach(() => {
    scope.window = { localStorage: { getItem: () => '3' } };
  });
  afterEach(() => {
    delete scope.window;
  });

  it('when files upload, then they go as repeated "files" parts with x-workspace-id and the attachments come back', async () => {
    const attachments = [
      {
        id: 'a1',
        originalName: 'a.txt',
        mimeType: 'text/plain',
        size: 2,
        url: '/api/uploads/chat-attachments/a1?workspaceId=3',
      },
    ];
    let sent: RequestInit | undefined;
    globalThis.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
      sent = init;
      return Response.json({ files: attachments });
    }) as unknown as typeof fetch;
    const result = await uploadChatAttachments([
      new File(['hi'], 'a.txt', { type: 'text/plain' }),
      new File(['yo'], 'b.txt', { type: 'text/plain' }),
    ]);
    expect(result).toEqual(attachments);
    const form = sent?.body as FormData;
    expect(form.getAll('files').map((f) => (f as File).name)).toEqual(['a.txt', 'b.txt']);
    expect(sent?.headers).toMatchObject({ 'x-workspace-id': '3' });
  });

  it("when the server refuses, then the error carries the server's message", async () => {
    globalThis.fetch = jest.fn(async () =>
      Response.json(
        { code: 'FILE.TOO_LARGE', message: 'Each file must be smaller than 10MB.' },
        { status: 413 },
      ),
    ) as unknown as typeof fetch;
    const error = await uploadChatAttachments([new File(['x'], 'a.txt')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).message).toBe('Each file must be smaller than 10MB.');
  });

  it("when the server's answer has no message, then it reads 'Upload failed: {status}'", async () => {
    globalThis.fetch = jest.fn(
      async () => new Response('', { status: 500 }),
    ) as unknown as typeof fetch;
    await expect(uploadChatAttachments([new File(['x'], 'a.txt')])).rejects.toThrow(
      'Upload failed: 500',
    );
  });
});
