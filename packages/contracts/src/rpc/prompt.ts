import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { TrustedContext } from '../identity';
import { ContentType } from '../primitives';
import { PromptVersionNumber } from '../entities/content';

// Request/reply served by the prompt service for other services. The caller forwards the
// trusted context of the request it serves; the prompt service applies the same access rules
// as GET /api/prompts/{id} (a prompt the caller may not see is not found).

/** A prompt with its template, to run a generation. */
export const PROMPT_FOR_GENERATION_RPC = 'prompt.for-generation';

export const PromptForGenerationRequest = z.object({
  ctx: TrustedContext,
  promptId: EntityId,
  workspaceId: WorkspaceId.nullable(),
});
export type PromptForGenerationRequest = z.infer<typeof PromptForGenerationRequest>;

/** A reference image of the prompt, readable by the caller in MinIO. */
export const PromptReferenceObject = z.object({
  bucket: z.string(),
  key: z.string(),
  mimeType: z.string(),
});
export type PromptReferenceObject = z.infer<typeof PromptReferenceObject>;

export const PromptForGenerationReply = z.discriminatedUnion('found', [
  z.object({
    found: z.literal(true),
    prompt: z.object({
      id: EntityId,
      name: z.string(),
      template: z.string(),
      contentType: ContentType,
      model: z.string(),
      workspaceId: WorkspaceId.nullable(),
      referenceImages: z.array(PromptReferenceObject),
      /**
       * The prompt's `rev` now: the version a generation from it records (the number
       * GET /api/prompts/:id/versions calls `version`). Optional: older answers lack it.
       */
      version: PromptVersionNumber.optional(),
    }),
  }),
  z.object({ found: z.literal(false) }),
]);
export type PromptForGenerationReply = z.infer<typeof PromptForGenerationReply>;

/**
 * The prompt whose results (GET /api/prompts/{id}/results) the caller asks for: answered for
 * admins of the prompt's workspace and super admins, with the same rules as
 * GET /api/prompts/{id}/versions: a prompt the caller may not see is 404 PROMPT.NOT_FOUND,
 * one they see without administering its workspace 403 (the error comes back as such).
 */
export const PROMPT_FOR_RESULTS_RPC = 'prompt.for-results';

export const PromptForResultsRequest = PromptForGenerationRequest;
export type PromptForResultsRequest = z.infer<typeof PromptForResultsRequest>;

export const PromptForResultsReply = z.object({
  /** The prompt's workspace: its results are those of the contents made there. */
  workspaceId: WorkspaceId,
  /** The prompt's current version (its `rev`). */
  version: PromptVersionNumber,
});
export type PromptForResultsReply = z.infer<typeof PromptForResultsReply>;

/** The number of prompts GET /api/prompts?workspaceId= lists (the stats page's first count). */
export const PROMPT_COUNT_RPC = 'prompt.count';

export const PromptCountRequest = z.object({ ctx: TrustedContext, workspaceId: WorkspaceId });
export type PromptCountRequest = z.infer<typeof PromptCountRequest>;

export const PromptCountReply = z.object({ count: z.number().int().nonnegative() });
export type PromptCountReply = z.infer<typeof PromptCountReply>;
