import { MAX_CHAT_FILE_BYTES, MAX_CHAT_TOTAL_BYTES } from './constants';
import type { ContentItem } from './entities/content';
import {
  checkChatAttachments,
  conversationMessages,
  formatFileSize,
  initials,
  isAdminOf,
  isModelFor,
  maskSecret,
  slugify,
  type AttachmentFile,
} from './rules';

const MB = 1024 * 1024;

function buildFile(overrides: Partial<AttachmentFile> = {}): AttachmentFile {
  return { name: 'notes.txt', type: 'text/plain', size: 1024, ...overrides };
}

function buildFiles(count: number, overrides: Partial<AttachmentFile> = {}): AttachmentFile[] {
  return Array.from({ length: count }, (_, i) => buildFile({ name: `f${i}.txt`, ...overrides }));
}

describe('slugify', () => {
  it('when a name has capitals and spaces, then it is lower-cased with hyphens', () => {
    expect(slugify('Acme Marketing Team')).toBe('acme-marketing-team');
  });

  it('when a name has whitespace runs and blanks at the ends, then they collapse and go', () => {
    expect(slugify('  Big \t\n Shop  ')).toBe('big-shop');
  });

  it('when a name has other characters, then they are kept', () => {
    expect(slugify('R&D Lab')).toBe('r&d-lab');
  });
});

describe('checkChatAttachments', () => {
  it('when there are no files, then nothing is wrong', () => {
    expect(checkChatAttachments([])).toBeNull();
  });

  it('when every allowed type is attached, then nothing is wrong', () => {
    const types = [
      'image/png',
      'image/jpg',
      'image/jpeg',
      'image/webp',
      'application/pdf',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'text/plain',
    ];

    expect(checkChatAttachments(types.map((type) => buildFile({ type })))).toBeNull();
  });

  it('when a type has parameters or capitals, then it is compared without them', () => {
    expect(checkChatAttachments([buildFile({ type: 'Text/Plain; charset=utf-8' })])).toBeNull();
  });

  it('when a file has another type, then the invalid type rule is reported', () => {
    const problem = checkChatAttachments([buildFile(), buildFile({ type: 'image/gif' })]);

    expect(problem).toEqual({
      code: 'FILE.INVALID_TYPE',
      title: 'Invalid file type',
      description: 'Only PNG, JPG, JPEG, WebP, PDF, DOC, DOCX, and TXT files are allowed.',
    });
  });

  it('when a file is 1 byte under 10 MB, then it is accepted', () => {
    expect(checkChatAttachments([buildFile({ size: 10 * MB - 1 })])).toBeNull();
  });

  it('when a file is exactly 10 MB, then the file too large rule is reported', () => {
    expect(checkChatAttachments([buildFile({ size: MAX_CHAT_FILE_BYTES })])).toEqual({
      code: 'FILE.TOO_LARGE',
      title: 'File too large',
      description: 'Each file must be smaller than 10MB.',
    });
  });

  it('when 10 files are attached, then they are accepted', () => {
    expect(checkChatAttachments(buildFiles(10))).toBeNull();
  });

  it('when 11 files are attached, then the too many files rule is reported', () => {
    expect(checkChatAttachments(buildFiles(11))).toEqual({
      code: 'FILE.TOO_MANY',
      title: 'Too many files',
      description: 'You can attach a maximum of 10 files.',
    });
  });

  it('when the total is exactly 30 MB, then the files are accepted', () => {
    const files = [...buildFiles(3, { size: 10 * MB - 1 }), buildFile({ size: 3 })];

    expect(files.reduce((sum, f) => sum + f.size, 0)).toBe(MAX_CHAT_TOTAL_BYTES);
    expect(checkChatAttachments(files)).toBeNull();
  });

  it('when the total is 30 MB + 1 byte, then the total size rule is reported', () => {
    const files = [...buildFiles(3, { size: 10 * MB - 1 }), buildFile({ size: 4 })];

    expect(checkChatAttachments(files)).toEqual({
      code: 'FILE.TOTAL_TOO_LARGE',
      title: 'Total size too large',
      description: 'Total file size cannot exceed 30MB.',
    });
  });

  it('when several rules are broken, then the first in SPEC order is reported', () => {
    const files = [...buildFiles(11, { size: MAX_CHAT_FILE_BYTES }), buildFile({ type: 'x/y' })];

    expect(checkChatAttachments(files)?.title).toBe('Invalid file type');
    expect(checkChatAttachments(files.slice(0, 11))?.title).toBe('File too large');
  });
});

describe('formatFileSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1234567, '1.18 MB'],
    [10 * MB, '10 MB'],
    [3 * 1024 * MB, '3 GB'],
    [5 * 1024 * 1024 * MB, '5120 GB'],
  ])('when the size is %d bytes, then it reads %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('when the size is negative or not a number, then it reads 0 Bytes', () => {
    expect(formatFileSize(-5)).toBe('0 Bytes');
    expect(formatFileSize(Number.NaN)).toBe('0 Bytes');
  });
});

describe('isModelFor', () => {
  it('when the model belongs to the content type, then it fits', () => {
    expect(isModelFor('text', 'gpt-4o')).toBe(true);
    expect(isModelFor('image', 'gpt-image-1')).toBe(true);
  });

  it('when the model belongs to the other content type, then it does not fit', () => {
    expect(isModelFor('text', 'dall-e-3')).toBe(false);
    expect(isModelFor('image', 'gpt-4o')).toBe(false);
  });
});

describe('isAdminOf', () => {
  const user = { isSuperAdmin: false, workspaceRoles: { '1': 'admin', '2': 'user' } } as const;

  it('when the user is admin of the workspace, then they are an admin there', () => {
    expect(isAdminOf(user, 1)).toBe(true);
    expect(isAdminOf(user, '1')).toBe(true);
  });

  it('when the user is a plain member or not a member, then they are not an admin', () => {
    expect(isAdminOf(user, 2)).toBe(false);
    expect(isAdminOf(user, 3)).toBe(false);
    expect(isAdminOf(user, null)).toBe(false);
  });

  it('when the user is a super admin, then they are an admin everywhere', () => {
    expect(isAdminOf({ isSuperAdmin: true, workspaceRoles: {} }, 7)).toBe(true);
    expect(isAdminOf({ isSuperAdmin: true, workspaceRoles: {} }, null)).toBe(true);
  });

  it('when there is no user, then there is no admin', () => {
    expect(isAdminOf(null, 1)).toBe(false);
  });
});

describe('initials', () => {
  it.each([
    ['jane doe', 'JD'],
    ['Jane  Mary Doe', 'JM'],
    ['admin', 'A'],
    ['  émile zola ', 'ÉZ'],
    ['', ''],
  ])('when the username is %p, then the initials are %p', (username, expected) => {
    expect(initials(username)).toBe(expected);
  });
});

describe('maskSecret', () => {
  it('when a key is long, then only its prefix and last four characters show', () => {
    expect(maskSecret('sk-abcdefghijklmnopwxyz')).toBe('sk-…wxyz');
  });

  it('when a key is short, then nothing of it shows', () => {
    expect(maskSecret('sk-short')).toBe('••••••••');
  });
});

describe('conversationMessages', () => {
  function buildItem(
    overrides: Partial<ContentItem> = {},
  ): Pick<ContentItem, 'content' | 'metadata'> {
    return { content: 'answer', metadata: {}, ...overrides };
  }

  it('when a thread is rebuilt, then the first question comes from inputs and later ones from originalMessage', () => {
    const messages = conversationMessages([
      buildItem({ content: 'A1', metadata: { inputs: { message: 'Q1' } } }),
      buildItem({ content: 'A2', metadata: { originalMessage: 'Q2' } }),
    ]);

    expect(messages).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q2' },
      { role: 'assistant', content: 'A2' },
    ]);
  });

  it('when an item has no question, then only its answer is kept', () => {
    expect(conversationMessages([buildItem({ content: 'A1' })])).toEqual([
      { role: 'assistant', content: 'A1' },
    ]);
  });
});
