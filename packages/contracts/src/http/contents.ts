import { z } from 'zod';
import { FIELD_LIMITS } from '../constants';
import { WorkspaceId } from '../ids';
import { ContentItem } from '../entities/content';
import { ContentType, integer } from '../primitives';
import { IdParams, WorkspaceQuery, type RouteDef } from './route';

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
    service: 'content',
    access: 'signed-in',
    query: ListContentsQuery,
    response: ContentsPage,
  },
  /** Sent with x-workspace-id. */
  get: {
    method: 'GET',
    path: '/api/contents/:id',
    service: 'content',
    access: 'signed-in',
    params: IdParams,
    response: ContentItem,
  },
  /** Sent with x-workspace-id. */
  conversation: {
    method: 'GET',
    path: '/api/contents/:id/conversation',
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
  stats: {
    method: 'GET',
    path: '/api/stats',
    service: 'content',
    access: 'member',
    query: WorkspaceQuery,
    response: StatsResponse,
  },
} as const satisfies Record<string, RouteDef>;
