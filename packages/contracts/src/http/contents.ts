import { z } from 'zod';
import { FIELD_LIMITS } from '../constants';
import { EntityId, WorkspaceId } from '../ids';
import { ContentItem, PromptVersionNumber, ReviewState } from '../entities/content';
import { ContentType, integer, IsoDateTime } from '../primitives';
import {
  FILE_RESPONSE,
  IdParams,
  OptionalWorkspaceQuery,
  WorkspaceParams,
  WorkspaceQuery,
  type RouteDef,
} from './route';

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
  /** Only the contents in this review state (issue 18). */
  review: ReviewState.optional(),
  /** Only the contents made with this model, by this user, from this prompt (the gallery). */
  model: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/, 'Model must be 1–64 letters, digits, ., _, : or -')
    .optional(),
  userId: EntityId.optional(),
  promptId: EntityId.optional(),
  /** Only the contents made at or after `from` and before `to` (instants, ISO 8601). */
  from: IsoDateTime.optional(),
  to: IsoDateTime.optional(),
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

/**
 * The workspace export (issue 18): one zip, streamed as it is built. Entries:
 * `contents/<id>.json` (ContentItem) and `contents/<id>.md` per text,
 * `images/<id>.<ext>` (the image's bytes) and `images/<id>.json` (ContentItem: prompt
 * inputs, model, author, time) per image, and `manifest.json` (WorkspaceExportManifest)
 * last: an archive without it is incomplete.
 */
export const WORKSPACE_EXPORT_ITEMS_HEADER = 'x-export-items';

export const WorkspaceExportManifest = z.object({
  workspaceId: WorkspaceId,
  exportedAt: IsoDateTime,
  /** Contents written (texts and images). */
  texts: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
  /** Image contents whose bytes were gone (only their JSON is in the archive). */
  imagesMissing: z.number().int().nonnegative(),
});
export type WorkspaceExportManifest = z.infer<typeof WorkspaceExportManifest>;

/** Contents per review state (a content never reviewed is a draft). */
export const ReviewCounts = z.object({
  draft: Count,
  'in-review': Count,
  approved: Count,
  'changes-requested': Count,
});
export type ReviewCounts = z.infer<typeof ReviewCounts>;

export const StatsResponse = z.object({
  totalPrompts: Count,
  textContent: Count,
  imagesGenerated: Count,
  /** Contents per review state (issue 18). */
  reviews: ReviewCounts,
});
export type StatsResponse = z.infer<typeof StatsResponse>;

/**
 * A review change (issue 18): the author submits (a draft, or after changes were requested);
 * an admin of the content's workspace or a super administrator approves or requests changes
 * (with a comment). A change that no longer fits the current state answers 409.
 */
export const REVIEW_ACTIONS = ['submit', 'approve', 'request-changes'] as const;
export const ReviewAction = z.enum(REVIEW_ACTIONS, {
  error: `Action must be one of: ${REVIEW_ACTIONS.join(', ')}`,
});
export type ReviewAction = z.infer<typeof ReviewAction>;

export const ReviewContentBody = z
  .object({
    action: ReviewAction,
    comment: z
      .string()
      .trim()
      .max(
        FIELD_LIMITS.reviewComment,
        `Comment must be at most ${FIELD_LIMITS.reviewComment} characters`,
      )
      .optional()
      .transform((c) => c || undefined),
  })
  .refine((b) => b.action !== 'request-changes' || b.comment !== undefined, {
    path: ['comment'],
    message: 'A comment is required when requesting changes',
  });
export type ReviewContentBody = z.infer<typeof ReviewContentBody>;

const Micros = z.number().int().nonnegative();

/**
 * A prompt version's results (issue 18): `runs` the contents generated from it (first
 * messages, not replies; deleted ones taken out), `approved` those approved, `approvedShare`
 * approved / runs (0 without runs). `costMicros`: what its generations cost (deleted ones
 * included: it was spent), null when none of them carried a cost (made before costs were
 * recorded); `costPerApprovedMicros` that over `approved`, null without approved contents or
 * without a cost.
 */
export const PromptVersionResults = z.object({
  version: PromptVersionNumber,
  runs: Count,
  approved: Count,
  approvedShare: z.number().min(0).max(1),
  costMicros: Micros.nullable(),
  costPerApprovedMicros: Micros.nullable(),
});
export type PromptVersionResults = z.infer<typeof PromptVersionResults>;

/** A user's runs of the prompt (every version) and how many of them were approved. */
export const PromptUserResults = z.object({ userId: EntityId, runs: Count, approved: Count });
export type PromptUserResults = z.infer<typeof PromptUserResults>;

/**
 * The template results of a prompt in its own workspace: per version, newest first (the
 * current version always listed), and per user, most runs first. Contents made before prompt
 * versions were recorded are not counted. Money in micro-units of `currency`.
 */
export const PromptResultsResponse = z.object({
  promptId: EntityId,
  workspaceId: WorkspaceId,
  currentVersion: PromptVersionNumber,
  currency: z.string(),
  versions: z.array(PromptVersionResults),
  users: z.array(PromptUserResults),
});
export type PromptResultsResponse = z.infer<typeof PromptResultsResponse>;

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
    query: OptionalWorkspaceQuery,
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
    query: OptionalWorkspaceQuery,
    response: ConversationResponse,
  },
  /** The owner, an admin of the content's workspace or a super administrator; 204. */
  remove: {
    method: 'DELETE',
    path: '/api/contents/:id',
    service: 'content',
    access: 'signed-in',
    params: IdParams,
    query: OptionalWorkspaceQuery,
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
  /**
   * The workspace's contents as one zip (WorkspaceExportManifest), streamed as it is built:
   * admins of the workspace and super administrators (members 403, others 404). The header
   * WORKSPACE_EXPORT_ITEMS_HEADER gives the number of contents, for progress. A failure
   * midway aborts the answer (no end of archive).
   */
  exportWorkspace: {
    method: 'GET',
    path: '/api/workspaces/:id/export',
    workspaceParam: 'id',
    service: 'content',
    access: 'workspace-admin',
    params: WorkspaceParams,
    response: FILE_RESPONSE,
  },
  /** A review change (ReviewContentBody); answers the content. Sent with x-workspace-id. */
  review: {
    method: 'POST',
    path: '/api/contents/:id/review',
    service: 'content',
    access: 'signed-in',
    params: IdParams,
    query: OptionalWorkspaceQuery,
    body: ReviewContentBody,
    response: ContentItem,
  },
  /**
   * The template results of a prompt (issue 18, PromptResultsResponse): admins of the prompt's
   * workspace and super admins, as GET /api/prompts/:id/versions (a prompt the caller may not
   * see 404, others 403). Kept by the content service as contents are stored, reviewed and
   * deleted. Sent with x-workspace-id (or workspaceId in the query).
   */
  promptResults: {
    method: 'GET',
    path: '/api/prompts/:id/results',
    service: 'content',
    access: 'signed-in',
    params: IdParams,
    query: OptionalWorkspaceQuery,
    response: PromptResultsResponse,
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
