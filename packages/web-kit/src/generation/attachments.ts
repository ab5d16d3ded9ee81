import type { Attachment, AttachmentFile, AttachmentProblem, ErrorCode } from '@aict/contracts';
import {
  ALLOWED_CHAT_MIME_TYPES,
  ERROR_DEFAULT_MESSAGES,
  MAX_CHAT_FILE_BYTES,
  MAX_CHAT_FILES,
  MAX_CHAT_TOTAL_BYTES,
} from '@aict/contracts/constants';
import { ApiError, apiRequest, errorMessage, readJson } from '../api/http';
import { readStoredWorkspaceId } from '../lib/storage';

// SPEC §5 "Chat attachments", checked before upload. checkChatAttachments and formatFileSize
// are copies of @aict/contracts' rules.ts (its root entry brings zod onto the shell's first
// screen, see lib/contracts-subset.ts); attachments.test.ts fails the moment they drift.

type FileProblemCode = Extract<
  ErrorCode,
  'FILE.INVALID_TYPE' | 'FILE.TOO_LARGE' | 'FILE.TOO_MANY' | 'FILE.TOTAL_TOO_LARGE'
>;

/** The description is the error code's one English default (the server sends the same). */
function problem(code: FileProblemCode, title: string): AttachmentProblem {
  return { code, title, description: ERROR_DEFAULT_MESSAGES[code] };
}

/** Compares the media type without parameters, case-insensitively. */
export function isAllowedChatMimeType(type: string): boolean {
  const bare = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return (ALLOWED_CHAT_MIME_TYPES as readonly string[]).includes(bare);
}

/**
 * The first broken rule (type, size per file, count, total size) for all the files of one
 * message (already attached + new), or null.
 */
export function checkChatAttachments(files: readonly AttachmentFile[]): AttachmentProblem | null {
  if (files.some((file) => !isAllowedChatMimeType(file.type))) {
    return problem('FILE.INVALID_TYPE', 'Invalid file type');
  }
  if (files.some((file) => file.size >= MAX_CHAT_FILE_BYTES)) {
    return problem('FILE.TOO_LARGE', 'File too large');
  }
  if (files.length > MAX_CHAT_FILES) {
    return problem('FILE.TOO_MANY', 'Too many files');
  }
  if (files.reduce((total, file) => total + file.size, 0) > MAX_CHAT_TOTAL_BYTES) {
    return problem('FILE.TOTAL_TOO_LARGE', 'Total size too large');
  }
  return null;
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** '0 Bytes', '512 Bytes', '1.5 KB', '10 MB': powers of 1024, at most 2 decimals. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const unit = Math.min(
    Math.max(Math.floor(Math.log(bytes) / Math.log(1024)), 0),
    SIZE_UNITS.length - 1,
  );
  return `${parseFloat((bytes / 1024 ** unit).toFixed(2))} ${SIZE_UNITS[unit]}`;
}

export const CHAT_ATTACHMENTS_PATH = '/api/uploads/chat-attachments';

/** A failed upload, with the text SPEC §8 shows: the server's message, else 'Upload failed: {status}'. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function serverMessage(error: ApiError): string | null {
  const text = errorMessage(error);
  return text === error.message ? null : text;
}

/**
 * Uploads chat attachments (multipart, repeated field 'files', header x-workspace-id) and
 * returns the stored attachments; throws UploadError with the server's message otherwise.
 */
export async function uploadChatAttachments(
  files: readonly File[],
  { signal }: { signal?: AbortSignal } = {},
): Promise<Attachment[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const workspaceId = readStoredWorkspaceId();
  try {
    const res = await apiRequest('POST', CHAT_ATTACHMENTS_PATH, form, {
      headers: workspaceId ? { 'x-workspace-id': workspaceId } : {},
      signal,
    });
    const body = await readJson<{ files?: Attachment[] } | null>(res);
    return body?.files ?? [];
  } catch (error) {
    if (error instanceof ApiError) {
      throw new UploadError(serverMessage(error) ?? `Upload failed: ${error.status}`, error.status);
    }
    throw error;
  }
}
