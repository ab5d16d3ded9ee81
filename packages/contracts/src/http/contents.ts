import { z } from 'zod';
import { FIELD_LIMITS } from '../constants';
import { WorkspaceId } from '../ids';
import { ContentItem } from '../entities/content';
import { ContentType, integer, IsoDateTime } from '../primitives';
import { FILE_RESPONSE, IdParams, WorkspaceQuery, type RouteDef } from './route';

/**
 * History: newest first; `q` matches the title (and the text of text items),
 * case-insensitively. Without workspaceId the X-Workspace-ID header names the workspace.
 */
export const ListContentsQuery = z.object({
  workspaceId: WorkspaceId.optional(),
  type: ContentType.optional(),
  q: z
    .string()
    .trim()
    .max(FIELD_LIMITS.searchQuery, `Search must be at most ${FIELD_LIMITS.searchQuery} characters`)
    .optional()
    .transform((q) => q || undefined),
  limit: integer('Limit', 1, 100).default(20),
  /** Opaque: pass back the previous page's nextCursor. */
  cursor: z.string().min(1).max(FIELD_LIMITS.cursor).optional(),
});
export type ListContentsQuery = z.infer<typeof ListContentsQuery>;

export const ContentsPage = z.object({
  items: z.array(ContentItem),
  nextCursor: z.string().nullable(),
});
export type ContentsPage = z.infer<typeof ContentsPage>;

/** A thread, oldest first. */
export const ConversationResponse = z.array(ContentItem);
export type ConversationResponse = z.infer<typeof ConversationResponse>;

/** The formats a conversation or text thread exports to. */
export const EXPORT_FORMATS = ['md', 'json', 'docx'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS, {
  error: `Format must be one of: ${EXPORT_FORMATS.join(', ')}`,
});
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportContentQuery = z.object({
  format: ExportFormat,
  workspaceId: WorkspaceId.optional(),
});
export type ExportContentQuery = z.infer<typeof ExportContentQuery>;

/** The JSON export: the thread (or the content alone), oldest first. */
export const ContentExport = z.object({
  exportedAt: IsoDateTime,
  title: z.string(),
  messages: z.array(
    z.object({
      id: z.string(),
      role: z.enum(['user', 'assistant']),
      content: z.string(),
      model: z.string().optional(),
      createdAt: IsoDateTime,
      voiceFlags: z.array(z.string()).optional(),
    }),
  ),
});
export type ContentExport = z.infer<typeof ContentExport>;

const Count = z.number().int().nonnegative();

export const StatsResponse = z.object({
  totalPrompts: Count,
  textContent: Count,
  imagesGenerated: Count,
});
export type StatsResponse = z.infer<typeof StatsResponse>;

export const CONTENT_ROUTES = {
  list: {
    method: 'GET',
    path: '/api/contents',
    apiToken: 'read-contents',
    service: 'content',
    access: 'signed-in',
    query: ListContentsQuery,
    response: ContentsPage,
  },
  /** Sent with x-workspace-id. */
  get: {
    method: 'GET',
    path: '/api/contents/:id',
    apiToken: 'read-contents',
    service: 'content',
    access: 'signed-in',
    params: IdParams,
    response: ContentItem,
  },
  /** Sent with x-workspace-id. */
  conversation: {
    method: 'GET',
    path: '/api/contents/:id/conversation',
    apiToken: 'read-contents',
    service: 'content',
    access: 'signed-in',
    params: IdParams,
    response: ConversationResponse,
  },
  /** The owner, an admin of the content's workspace or a super administrator; 204. */
  remove: {
    method: 'DELETE',
    path: '/api/contents/:id',
    service: 'content',
    access: 'signed-in',
    params: IdParams,
    response: null,
  },
  /**
   * The conversation (or text thread) of the content as a download: Markdown, JSON
   * (ContentExport) or .docx. Whoever may read the content may export it. Sent with
   * x-workspace-id (or workspaceId in the query).
   */
  export: {
    method: 'GET',
    path: '/api/contents/:id/export',
    service: 'content',
    access: 'signed-in',
    params: IdParams,
    query: ExportContentQuery,
    response: FILE_RESPONSE,
  },
  stats: {
    method: 'GET',
    path: '/api/stats',
    apiToken: 'read-contents',
    service: 'content',
    access: 'member',
    query: WorkspaceQuery,
    response: StatsResponse,
  },
} as const satisfies Record<string, RouteDef>;
