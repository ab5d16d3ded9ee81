import {
  ALLOWED_CHAT_MIME_TYPES,
  MAX_CHAT_FILE_BYTES,
  MAX_CHAT_FILES,
  MAX_CHAT_TOTAL_BYTES,
  MODELS_BY_CONTENT_TYPE,
} from './constants';
import type { ChatMessage, ContentItem } from './entities/content';
import type { User } from './entities/user';
import { ERRORS, ErrorCode } from './errors';
import type { ContentType } from './primitives';

// Pure rules that server and client both apply.

/** Workspace slug and download name: lower-cased, trimmed, whitespace runs → '-'. */
export function slugify(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-');
}

export function isModelFor(contentType: ContentType, model: string): boolean {
  return (MODELS_BY_CONTENT_TYPE[contentType] as readonly string[]).includes(model);
}

export interface AttachmentFile {
  name: string;
  type: string;
  size: number;
}

export interface AttachmentProblem {
  code: ErrorCode;
  title: string;
  description: string;
}

/** Compares the media type without parameters, case-insensitively. */
export function isAllowedChatMimeType(type: string): boolean {
  const bare = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return (ALLOWED_CHAT_MIME_TYPES as readonly string[]).includes(bare);
}

function problem(code: ErrorCode, title: string): AttachmentProblem {
  return { code, title, description: ERRORS[code].message };
}

/**
 * The first broken attachment rule (SPEC §5, in its order: type, size per file, count,
 * total size) for all the files of one message (already attached + new), or null.
 */
export function checkChatAttachments(files: readonly AttachmentFile[]): AttachmentProblem | null {
  if (files.some((file) => !isAllowedChatMimeType(file.type))) {
    return problem(ErrorCode.FILE_INVALID_TYPE, 'Invalid file type');
  }
  if (files.some((file) => file.size >= MAX_CHAT_FILE_BYTES)) {
    return problem(ErrorCode.FILE_TOO_LARGE, 'File too large');
  }
  if (files.length > MAX_CHAT_FILES) {
    return problem(ErrorCode.FILE_TOO_MANY, 'Too many files');
  }
  if (files.reduce((total, file) => total + file.size, 0) > MAX_CHAT_TOTAL_BYTES) {
    return problem(ErrorCode.FILE_TOTAL_TOO_LARGE, 'Total size too large');
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

/** An admin for interface purposes: a super admin, or role 'admin' in that workspace. */
export function isAdminOf(
  user: Pick<User, 'isSuperAdmin' | 'workspaceRoles'> | null | undefined,
  workspaceId: number | string | null | undefined,
): boolean {
  if (!user) return false;
  if (user.isSuperAdmin) return true;
  return workspaceId != null && user.workspaceRoles[String(workspaceId)] === 'admin';
}

/** First letters of up to two words, capitalised: 'jane doe' → 'JD', 'admin' → 'A'. */
export function initials(username: string): string {
  return username
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => [...word][0]?.toUpperCase() ?? '')
    .join('');
}

/** Shows a secret without giving it away: 'sk-…wxyz' (fully masked when short). */
export function maskSecret(secret: string): string {
  return secret.length <= 12 ? '••••••••' : `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}

/**
 * Rebuilds a conversation from its ordered content items: the user message of the first
 * item is metadata.inputs.message, of later items metadata.originalMessage (skipped when
 * absent); each item's content is the assistant's answer.
 */
export function conversationMessages(
  items: readonly Pick<ContentItem, 'content' | 'metadata'>[],
): ChatMessage[] {
  return items.flatMap((item, index): ChatMessage[] => {
    const asked = index === 0 ? item.metadata.inputs?.message : item.metadata.originalMessage;
    const answer: ChatMessage = { role: 'assistant', content: item.content };
    return asked ? [{ role: 'user', content: asked }, answer] : [answer];
  });
}
