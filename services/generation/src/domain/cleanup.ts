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
