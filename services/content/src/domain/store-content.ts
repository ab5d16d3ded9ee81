import type { ContentStoreReply, GeneratedContent } from '@aict/contracts';
import { pendingStoreId } from '../data/collections';
import { ownerKeyOf, recordOf } from '../data/layout';
import { applyStored, finishPending } from './derived';
import { ownerLock, type DomainDeps } from './domain-deps';

/**
 * Stores a finished generation once, by its id: the request/reply `content.store` and the
 * queued `generation.completed` both land here; whichever comes first stores, the other is a
 * no-op (`stored: false`), also when they run at the same time. Then `content.created`.
 *
 *   pending write (the repair's journal and the event's outbox) → record → derived
 *   documents → publish → pending write removed
 */
export async function storeContent(
  d: DomainDeps,
  gc: GeneratedContent,
): Promise<ContentStoreReply> {
  const reply = (stored: boolean): ContentStoreReply => ({ id: gc.id, stored });
  // The request and the event of one generation usually reach the same process: the second
  // is answered from memory. A record stored elsewhere (another replica, before a restart) is
  // found by the read after the pending write below, which a new content needs anyway.
  if (d.contents.knownToExist(gc.id)) return reply(false);
  const key = ownerKeyOf(gc.workspaceId, gc.userId);
  return d.locks.run(ownerLock(key), async () => {
    // Stored by this process while this call waited for the lock.
    if (d.contents.knownToExist(gc.id)) return reply(false);
    if (await d.counters.isClosed(key)) {
      d.logger.info({ contentId: gc.id, key }, 'content of a deleted workspace not stored');
      return reply(false);
    }
    const event = d.bus.envelope('content.created', createdData(gc));
    const pending = await d.pending.insertOnce({
      _id: pendingStoreId(gc.id),
      op: 'store',
      key,
      at: new Date(),
      content: JSON.stringify(gc),
      event,
    });
    if (!pending) return reply(false); // being stored elsewhere (or repaired)
    // Another replica may have stored it and removed its pending write between our first look
    // and our pending write (the record is written before the pending write goes): not again.
    if (await d.contents.exists(gc.id)) {
      await d.pending.remove(pendingStoreId(gc.id));
      return reply(false);
    }
    const record = recordOf(gc);
    await d.contents.insertOnce(record);
    await applyStored(d, record);
    await finishPending(d, pendingStoreId(gc.id), event).catch((err: unknown) =>
      d.logger.warn(
        { err, contentId: gc.id },
        'content.created not published yet; the repair will',
      ),
    );
    return reply(true);
  });
}

export function createdData(gc: GeneratedContent) {
  return {
    contentId: gc.id,
    workspaceId: gc.workspaceId,
    userId: gc.userId,
    contentType: gc.contentType,
    promptId: gc.promptId,
    parentId: gc.parentId,
    title: gc.title,
    model: gc.model,
    language: gc.language,
    createdAt: gc.createdAt,
  };
}
