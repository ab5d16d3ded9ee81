import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { ContentType, IsoDateTime } from '../primitives';
import { ContentMetadata, PromptVersionNumber } from '../entities/content';

// The hand-over of a finished generation from the generation service to the content service
// (docs/adr/0002-generation-and-content.md):
//
// 1. the generation service records the content in its own database with an outbox entry
//    (event `generation.completed`, delivered at least once to the content service's durable
//    queue, even after a crash or while the content service is down);
// 2. it then asks `content.store` (request/reply, fast path) so that the content is readable
//    through GET /api/contents/{id} when the client gets its answer;
// 3. the content service stores by `id` idempotently: whichever of the two arrives first
//    stores the content, the other one is a no-op. Exactly one content per generation.

/** Usage reported by the provider for one generation. */
export const GenerationUsage = z.object({
  promptTokens: z.number().int().nonnegative().default(0),
  completionTokens: z.number().int().nonnegative().default(0),
  images: z.number().int().nonnegative().default(0),
});
export type GenerationUsage = z.infer<typeof GenerationUsage>;

/**
 * A finished generation as the content service stores it. `content` is the text, or for an
 * image our own URL (IMAGE_URL_PREFIX…), never the provider's. `threadId` is the id of the
 * first content of the conversation (the content's own id for a first message).
 * `metadata.usage` holds the usage; `metadata.stopped` is true when the client stopped a stream.
 */
export const GeneratedContent = z.object({
  id: EntityId,
  workspaceId: WorkspaceId.nullable(),
  userId: EntityId,
  title: z.string().max(500),
  content: z.string(),
  contentType: ContentType,
  model: z.string().min(1).max(64),
  language: z.string().min(1).max(16),
  promptId: EntityId.nullable(),
  parentId: EntityId.nullable(),
  threadId: EntityId,
  metadata: ContentMetadata,
  usage: GenerationUsage,
  createdAt: IsoDateTime,
  /** The brand voice's words to avoid that the text contains (issue 18); absent: none. */
  voiceFlags: z.array(z.string()).optional(),
  /**
   * The version of the prompt the content came from: the prompt's `rev` when it ran (what
   * GET /api/prompts/:id/versions calls `version`); a reply carries its thread's. Absent on
   * contents made before versions were recorded, and without a prompt.
   */
  promptVersion: PromptVersionNumber.optional(),
  /**
   * What the provider call cost, in micro-units of USAGE_CURRENCY, at the price its usage
   * ledger entry was made at (the same figure the ledger settles). Absent on older contents.
   */
  costMicros: z.number().int().nonnegative().optional(),
});
export type GeneratedContent = z.infer<typeof GeneratedContent>;

/** Request/reply served by the content service; the request is a GeneratedContent. */
export const CONTENT_STORE_RPC = 'content.store';

/** `stored` false: it was stored before (by the queue or an earlier attempt). */
export const ContentStoreReply = z.object({ id: EntityId, stored: z.boolean() });
export type ContentStoreReply = z.infer<typeof ContentStoreReply>;

/**
 * Generated images are served by the generation service to members of the content's
 * workspace: `/api/images/{contentId}?workspaceId={ws}` (an <img> cannot send headers).
 */
export const IMAGE_URL_PREFIX = '/api/images/';

export function generatedImageUrl(contentId: string, workspaceId: number | null): string {
  const query = workspaceId === null ? '' : `?workspaceId=${workspaceId}`;
  return `${IMAGE_URL_PREFIX}${encodeURIComponent(contentId)}${query}`;
}

/**
 * Where the generation service keeps a generated image in its bucket (the content service
 * reads it from there for the workspace export).
 */
export function generatedImageKey(workspaceId: number | null, contentId: string): string {
  return `workspaces/${workspaceId ?? 'none'}/images/${contentId}`;
}

/** Chat attachments are served by the generation service to their owner. */
export const ATTACHMENT_URL_PREFIX = '/api/uploads/chat-attachments/';

export function attachmentUrl(attachmentId: string, workspaceId: number | null): string {
  const query = workspaceId === null ? '' : `?workspaceId=${workspaceId}`;
  return `${ATTACHMENT_URL_PREFIX}${encodeURIComponent(attachmentId)}${query}`;
}
