import { z } from 'zod';
import { DEFAULT_CONTENT_LANGUAGE } from '../constants';
import { EntityId, WorkspaceId } from '../ids';
import { ContentType, IsoDateTime, ResourceUrl } from '../primitives';

/**
 * Content metadata: for a first message `inputs` (the prompt inputs, with `message` in the
 * chat), for a reply `originalMessage`. Other keys pass through. Accepts a JSON string too.
 */
export const ContentMetadata = z.preprocess(
  (value) => (typeof value === 'string' ? parseJsonOr(value) : (value ?? {})),
  z.looseObject({
    inputs: z.record(z.string(), z.string()).optional(),
    originalMessage: z.string().optional(),
  }),
);
export type ContentMetadata = z.infer<typeof ContentMetadata>;

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A prompt's version number: its `rev` (1, 2, …), as GET /api/prompts/:id/versions lists it. */
export const PromptVersionNumber = z.number().int().positive();

/** Review states of a content (issue 18); a content starts as a draft. */
export const REVIEW_STATES = ['draft', 'in-review', 'approved', 'changes-requested'] as const;
export const ReviewState = z.enum(REVIEW_STATES, {
  error: `Review state must be one of: ${REVIEW_STATES.join(', ')}`,
});
export type ReviewState = z.infer<typeof ReviewState>;

/** The review of a content: its state and the last change (who, when, the admin's comment). */
export const ContentReview = z.object({
  state: ReviewState,
  comment: z.string().optional(),
  by: EntityId.optional(),
  at: IsoDateTime.optional(),
});
export type ContentReview = z.infer<typeof ContentReview>;

/**
 * A generated text or image. `content` is the text, or the image URL for images.
 * Optional fields are absent when unset, never null.
 */
export const ContentItem = z.object({
  id: EntityId,
  title: z.string(),
  content: z.string(),
  contentType: ContentType,
  model: z.string(),
  language: z.string().default(DEFAULT_CONTENT_LANGUAGE),
  promptId: EntityId.optional(),
  /** The version of the prompt it came from (prompt versions, issue 18); absent when unknown. */
  promptVersion: PromptVersionNumber.optional(),
  userId: EntityId,
  workspaceId: WorkspaceId.optional(),
  parentId: EntityId.optional(),
  metadata: ContentMetadata,
  createdAt: IsoDateTime,
  /** Words to avoid (the workspace's brand voice) the text contains; absent when none. */
  voiceFlags: z.array(z.string()).optional(),
  /** The review (issue 18); the content service always sends it (a draft when never changed). */
  review: ContentReview.optional(),
});
export type ContentItem = z.infer<typeof ContentItem>;

export const Attachment = z.object({
  id: EntityId,
  originalName: z.string(),
  mimeType: z.string(),
  size: z.number().int().nonnegative(),
  url: ResourceUrl,
});
export type Attachment = z.infer<typeof Attachment>;

export const ChatMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** The continue-conversation record kept in session storage (SESSION_STORAGE_KEYS). */
export const ContinueRecord = z.object({
  contentId: EntityId,
  contentTitle: z.string(),
  initialContent: z.string(),
  model: z.string(),
  promptId: EntityId.nullish(),
  workspaceId: WorkspaceId.nullish(),
  metadata: ContentMetadata,
});
export type ContinueRecord = z.infer<typeof ContinueRecord>;
