import type { TrustedContext } from '@aict/contracts';
import { loadVisiblePrompt } from './access';
import type { DomainDeps } from './domain-deps';
import { viewPrompt, type PromptDetail } from './view-prompt';

/** GET /api/prompts/:id: the prompt, full for admins and as a summary for others; else 404. */
export async function getPrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
): Promise<PromptDetail> {
  const prompt = await loadVisiblePrompt(d, ctx, promptId, inView);
  return viewPrompt(d, ctx, prompt, inView);
}
