import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { TrustedContext } from '../identity';
import { ContentType } from '../primitives';

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
    }),
  }),
  z.object({ found: z.literal(false) }),
]);
export type PromptForGenerationReply = z.infer<typeof PromptForGenerationReply>;

/** The number of prompts GET /api/prompts?workspaceId= lists (the stats page's first count). */
export const PROMPT_COUNT_RPC = 'prompt.count';

export const PromptCountRequest = z.object({ ctx: TrustedContext, workspaceId: WorkspaceId });
export type PromptCountRequest = z.infer<typeof PromptCountRequest>;

export const PromptCountReply = z.object({ count: z.number().int().nonnegative() });
export type PromptCountReply = z.infer<typeof PromptCountReply>;
