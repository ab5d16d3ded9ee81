import { GeneratedContent } from '@aict/contracts';
import type { PendingDoc } from '../data/collections';
import { recordOf } from '../data/layout';
import { applyDeleted, applyReview, applyStored, finishPending } from './derived';
import { ownerLock, type DomainDeps } from './domain-deps';

// The repair of derived documents after a crash between a record's write and the end of its
// derived writes: every write leaves a pending document (collection `pending`, small) until
// it is complete; this replays what is left, from the record, idempotently, and publishes
// the write's event (the pending document is its outbox). Runs at start and periodically.

/** One pass over pending writes older than `minAgeMs`; how many were completed. */
export async function repairPending(d: DomainDeps, minAgeMs: number): Promise<number> {
  const cutoff = new Date(Date.now() - minAgeMs);
  const due = await d.pending.findDue(cutoff, 200);
  let done = 0;
  for (const pending of due) {
    if (await repairOne(d, pending)) done++;
  }
  return done;
}

async function repairOne(d: DomainDeps, pending: PendingDoc): Promise<boolean> {
  return d.locks.run(ownerLock(pending.key), async () => {
    const still = await d.pending.findById(pending._id);
    if (!still) return false; // its writer finished meanwhile
    if (still.op === 'store') {
      const gc = GeneratedContent.parse(JSON.parse(still.content));
      let record = await d.contents.findById(gc.id);
      if (!record) {
        await d.contents.insertOnce(recordOf(gc));
        record = await d.contents.findById(gc.id);
      }
      if (record && !record.deletedAt) await applyStored(d, record);
    } else if (still.op === 'review') {
      const record = await d.contents.findById(still.contentId);
      if (record && !record.deletedAt) await applyReview(d, record);
      await d.pending.remove(still._id);
      d.logger.info({ pending: still._id, op: still.op }, 'pending write completed by the repair');
      return true;
    } else {
      const record = await d.contents.findById(still.contentId);
      if (record) {
        const deletedAt = record.deletedAt ?? new Date();
        if (!record.deletedAt) await d.contents.tombstone(record._id, deletedAt);
        await applyDeleted(d, { ...record, deletedAt });
      }
    }
    await finishPending(d, still._id, still.event);
    d.logger.info({ pending: still._id, op: still.op }, 'pending write completed by the repair');
    return true;
  });
}

/** Repairs at once, then every `intervalMs`; returns the stop function. */
export function watchPending(d: DomainDeps): () => Promise<void> {
  const { REPAIR_INTERVAL_MS: intervalMs, REPAIR_MIN_AGE_MS: minAgeMs } = d.config;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | null = null;
  const tick = () => {
    pass = repairPending(d, minAgeMs)
      .then(
        () => undefined,
        (err: unknown) => d.logger.warn({ err }, 'repair pass failed; the next one retries'),
      )
      .finally(() => {
        pass = null;
        if (stopped) return;
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      });
  };
  timer = setTimeout(tick, 0);
  timer.unref();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await pass;
  };
}
