import type { PromptForResultsReply, TrustedContext } from '@aict/contracts';
import { isAdminIn } from '@aict/service-kit';
import { loadVisiblePrompt, workspaceInView } from './access';
import type { DomainDeps } from './domain-deps';
import { resultsForbidden } from './prompt.errors';

/**
 * `prompt.for-results`: the workspace and current version of a prompt whose template results
 * (kept by the content service) the caller asks for. Decided as GET /api/prompts/:id/versions:
 * a prompt the caller may not see is 404, one whose workspace they do not administer 403.
 */
export async function promptForResults(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  workspaceId: number | null,
): Promise<PromptForResultsReply> {
  const inView = workspaceInView(ctx, [workspaceId]);
  const prompt = await loadVisiblePrompt(d, ctx, promptId, inView);
  if (!isAdminIn(ctx, prompt.workspaceId)) throw resultsForbidden();
  return { workspaceId: prompt.workspaceId, version: prompt.rev };
}
