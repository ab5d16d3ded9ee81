import type { TrustedContext } from '@aict/contracts';
import type { PromptRecord } from '../data/prompt.model';
import type { ReferenceImageRecord } from '../data/prompt-images.model';
import { findVisiblePrompt, workspaceInView } from './access';
import type { DomainDeps } from './domain-deps';
import { imagesOf } from './view-prompt';

/**
 * `prompt.for-generation`: the prompt with its template and where its reference images lie in
 * MinIO, for the generation service to run it. Who sees it is decided as for
 * GET /api/prompts/:id (the workspace named, else the context's); a prompt the caller may not
 * see is `{found: false}`, like a missing one. The template goes to every caller who sees the
 * prompt: the generation service needs it and never returns it to the client.
 */
export async function promptForGeneration(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  workspaceId: number | null,
): Promise<
  { found: false } | { found: true; record: PromptRecord; images: ReferenceImageRecord[] }
> {
  const inView = workspaceInView(ctx, [workspaceId]);
  const prompt = await findVisiblePrompt(d, ctx, promptId, inView);
  if (!prompt) return { found: false };
  const images = await imagesOf(d, prompt._id);
  return { found: true, record: prompt, images };
}
