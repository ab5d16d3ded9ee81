import { imagesChain } from '../data/prompt-images.model';
import { versionsChain } from '../data/prompt-versions.model';
import type { DomainDeps } from './domain-deps';
import { removeDefaultPointer } from './default-prompt';
import { publicSummaries, closeWorkspaceIndex, syncPromptSummaries } from './prompt-summaries';
import { workspaceObjectsPrefix } from './reference-image-objects';

/**
 * `workspace.deleted`: the workspace's prompts (each with prompt.deleted), its default
 * pointer, its summary document, its entries in the public one and its images go. Every
 * step reads what is left, so running it again (a redelivery, a crash half-way) is harmless.
 */
export async function deleteWorkspacePrompts(d: DomainDeps, workspaceId: number): Promise<void> {
  const prompts = await d.prompts.listOfWorkspace(workspaceId);
  for (const prompt of prompts) {
    const deleted = await d.prompts.markDeleted(prompt._id, [
      d.bus.envelope('prompt.deleted', { promptId: prompt._id, workspaceId }),
    ]);
    if (deleted) d.relay.flushLater(d.models.Prompt, prompt._id);
  }
  await removeDefaultPointer(d, workspaceId);
  await closeWorkspaceIndex(d, workspaceId);
  // Public entries of its prompts, including any a crashed earlier run left behind.
  for (const entry of await publicSummaries(d)) {
    if (entry.workspaceId === workspaceId) await syncPromptSummaries(d, entry.id, workspaceId);
  }
  await d.storage.removePrefix(workspaceObjectsPrefix(workspaceId));
  for (const prompt of prompts) {
    await d.images.drop(imagesChain(prompt._id));
    await d.versions.drop(versionsChain(prompt._id));
  }
  await d.models.PromptImages.collection.deleteMany({
    workspaceId,
    '_outbox.0': { $exists: false },
  });
  d.logger.info({ workspaceId, prompts: prompts.length }, 'prompts of a deleted workspace removed');
}
