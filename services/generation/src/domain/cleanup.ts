import type { AttachmentRecord } from '../data/attachment.model';
import type { GenerationRecord } from '../data/generation.model';
import { workspaceFolder } from './attachments';
import type { DomainDeps } from './domain-deps';

/** content.deleted: the generated image goes; the record stays as a tombstone. Idempotent. */
export async function removeContentFiles(d: DomainDeps, contentId: string): Promise<void> {
  const record = await d.models.Generation.findById(contentId).lean<GenerationRecord>();
  if (!record) return;
  if (record.imageKey) await d.storage.remove(record.imageKey);
  if (!record.removedAt) {
    await d.locks.run(`generations:${contentId}`, () =>
      d.models.Generation.updateOne({ _id: contentId }, { $set: { removedAt: new Date() } }),
    );
  }
}

/** workspace.deleted: every image and attachment of the workspace, and their records. Idempotent. */
export async function removeWorkspaceFiles(d: DomainDeps, workspaceId: number): Promise<void> {
  const removed = await d.storage.removePrefix(`${workspaceFolder(workspaceId)}/`);
  await d.models.Attachment.deleteMany({ workspaceId });
  await d.models.Generation.updateMany(
    { workspaceId, removedAt: { $exists: false } },
    { $set: { removedAt: new Date() } },
  );
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
    const record = await d.models.Generation.findById(image[1])
      .select({ imageKey: 1, removedAt: 1 })
      .lean<Pick<GenerationRecord, 'imageKey' | 'removedAt'>>();
    return !!record && record.imageKey === key && !record.removedAt;
  }
  const attachment = /^workspaces\/[^/]+\/attachments\/[^/]+\/([^/]+)$/.exec(key);
  if (attachment) {
    const record = await d.models.Attachment.findById(attachment[1])
      .select({ key: 1 })
      .lean<Pick<AttachmentRecord, 'key'>>();
    return !!record && record.key === key;
  }
  return true;
}
