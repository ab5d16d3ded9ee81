import { workspaceFolder } from './attachments';
import type { DomainDeps } from './domain-deps';

/** content.deleted: the generated image goes; the record stays as a tombstone. Idempotent. */
export async function removeContentFiles(d: DomainDeps, contentId: string): Promise<void> {
  const record = await d.generations.findById(contentId);
  if (!record) return;
  if (record.imageKey) await d.storage.remove(record.imageKey);
  if (!record.removedAt) {
    await d.locks.run(`generations:${contentId}`, () => d.generations.markRemoved(contentId));
  }
}

/** workspace.deleted: every image and attachment of the workspace, and their records. Idempotent. */
export async function removeWorkspaceFiles(d: DomainDeps, workspaceId: number): Promise<void> {
  const removed = await d.storage.removePrefix(`${workspaceFolder(workspaceId)}/`);
  await d.attachments.removeOfWorkspace(workspaceId);
  await d.generations.markRemovedInWorkspace(workspaceId);
  d.logger.info({ workspaceId, objects: removed }, 'workspace files removed');
}

/**
 * For the orphan sweep: true when a record points at the object `key`. Keys name their
 * record (`workspaces/<ws>/images/<contentId>`, `workspaces/<ws>/attachments/<user>/<id>`), so
 * each check is one read by `_id`. A removed content's image is no longer pointed at; a key
 * of another shape is kept.
 */
export async function isObjectReferenced(d: DomainDeps, key: string): Promise<boolean> {
  const image = /^workspaces\/[^/]+\/images\/([^/]+)$/.exec(key);
  if (image) {
    const record = await d.generations.findImageOf(image[1]!);
    return !!record && record.imageKey === key && !record.removedAt;
  }
  const attachment = /^workspaces\/[^/]+\/attachments\/[^/]+\/([^/]+)$/.exec(key);
  if (attachment) {
    const record = await d.attachments.findKeyOf(attachment[1]!);
    return !!record && record.key === key;
  }
  return true;
}
