import type { TrustedContext } from '@aict/contracts';
import { assertCanDelete, loadVisiblePrompt } from './access';
import { auditEnvelope, promptAuditSummary } from './audit-act';
import { clearDefaultPrompt } from './default-prompt';
import { imagesChain } from '../data/prompt-images.model';
import { versionsChain } from '../data/prompt-versions.model';
import type { DomainDeps } from './domain-deps';
import { syncPromptSummariesAfterWrite } from './prompt-summaries';
import { promptNotFound } from './prompt.errors';
import { promptObjectsPrefix } from './reference-image-objects';

/**
 * DELETE /api/prompts/:id: its creator or an admin deletes it. load → authorise → tombstone
 * with prompt.deleted (the outbox relay removes the document once the event is out) → clear
 * the default pointer if it was the default → remove its images → summaries.
 */
export async function deletePrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
): Promise<void> {
  const prompt = await loadVisiblePrompt(d, ctx, promptId, inView);
  assertCanDelete(ctx, prompt);
  const deleted = await d.prompts.markDeleted(promptId, [
    d.bus.envelope('prompt.deleted', { promptId, workspaceId: prompt.workspaceId }),
    auditEnvelope(d, ctx, {
      action: 'prompt.deleted',
      workspaceId: prompt.workspaceId,
      targetType: 'prompt',
      targetId: promptId,
      before: promptAuditSummary(prompt),
    }),
  ]);
  if (!deleted) throw promptNotFound();
  d.relay.flushLater(d.models.Prompt, promptId);
  await clearDefaultPrompt(d, prompt.workspaceId, promptId, ctx);
  await removePromptObjects(d, prompt.workspaceId, promptId);
  await d.images.drop(imagesChain(promptId));
  await d.versions.drop(versionsChain(promptId));
  await syncPromptSummariesAfterWrite(d, promptId, prompt.workspaceId);
}

async function removePromptObjects(d: DomainDeps, workspaceId: number, promptId: string) {
  await d.storage
    .removePrefix(promptObjectsPrefix(workspaceId, promptId))
    .catch((err: unknown) =>
      d.logger.warn({ err, promptId }, 'reference image objects of a deleted prompt not removed'),
    );
}
