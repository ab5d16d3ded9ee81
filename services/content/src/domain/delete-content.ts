import type { TrustedContext } from '@aict/contracts';
import { pendingDeleteId, type PendingDoc } from '../data/collections';
import type { ContentRecord } from '../data/layout';
import { assertCanDelete, loadVisibleContent } from './access';
import { applyDeleted, finishPending } from './derived';
import { ownerLock, type DomainDeps } from './domain-deps';

/** DELETE /api/contents/:id: owner, admins of its workspace, super admins. Then content.deleted. */
export async function deleteContent(
  d: DomainDeps,
  ctx: TrustedContext,
  id: string,
  inView: number | null,
): Promise<void> {
  const record = await loadVisibleContent(d, ctx, id, inView);
  assertCanDelete(ctx, record);
  await removeContent(d, record);
}

/**
 *   pending write with content.deleted → tombstone (a late copy of the generation stays
 *   out) → derived documents → publish → pending write removed
 */
export async function removeContent(d: DomainDeps, record: ContentRecord): Promise<void> {
  await d.locks.run(ownerLock(record.key), async () => {
    if (!(await d.contents.isLive(record._id))) return; // deleted meanwhile
    const event = d.bus.envelope('content.deleted', {
      contentId: record._id,
      workspaceId: record.workspaceId,
      contentType: record.contentType,
    });
    const pendingId = pendingDeleteId(record._id);
    const pending: Extract<PendingDoc, { op: 'delete' }> = {
      _id: pendingId,
      op: 'delete',
      key: record.key,
      at: new Date(),
      contentId: record._id,
      event,
    };
    await d.pending.save(pending);
    const deletedAt = new Date();
    await d.contents.tombstone(record._id, deletedAt);
    // Read again under the lock: a review change may have moved its counts meanwhile.
    const current = (await d.contents.findById(record._id)) ?? record;
    await applyDeleted(d, { ...current, deletedAt });
    await finishPending(d, pendingId, event).catch((err: unknown) =>
      d.logger.warn(
        { err, contentId: record._id },
        'content.deleted not published yet; the repair will',
      ),
    );
  });
}
