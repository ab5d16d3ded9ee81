import type { Connection } from 'mongoose';

/**
 * Idempotent consumers: each event id is claimed in a collection whose `_id` IS the event
 * id, so every operation is a lookup by `_id` (the fast path on FerretDB, see
 * ARCHITECTURE "Data on both engines"). The claim is taken before the handler runs and
 * marked `done` after it succeeded:
 *   - a duplicate (redelivery, an event published twice by the outbox after a crash) finds
 *     `done` and changes nothing;
 *   - a duplicate arriving while the first copy is still being handled (another consumer,
 *     or the same prefetch window) waits for it instead of running alongside it;
 *   - a handler that fails releases the claim, so the retry runs it again;
 *   - a consumer that died mid-handling leaves a claim that expires after `leaseMs`, then
 *     the redelivered copy takes it over.
 * A crash after the handler's own writes and before `done` runs the handler once more:
 * keep handlers' writes idempotent too (`$set` over `$inc`, upserts by id) where they can be.
 * On MongoDB, prune old `done` ids with a periodic job if the collection grows too large.
 */
export interface ProcessedStore {
  /** Runs `fn` unless event `id` was already processed; true when it ran. */
  runOnce(id: string, type: string, fn: () => Promise<void> | void): Promise<boolean>;
  isProcessed(id: string): Promise<boolean>;
}

export interface ProcessedStoreOptions {
  /** Default `processed_events`. */
  collection?: string;
  /** How long a claim protects a handling in progress; longer than the slowest handler. Default 30 s. */
  leaseMs?: number;
  /** Pause between looks at a claim held by someone else. Default 100 ms. */
  pollMs?: number;
}

interface ProcessedDoc {
  _id: string;
  type: string;
  status: 'processing' | 'done';
  leaseUntil?: Date;
  processedAt?: Date;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isDuplicateKey(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 11000 || code === 11001;
}

export function createProcessedStore(
  connection: Connection,
  options: ProcessedStoreOptions = {},
): ProcessedStore {
  const { collection = 'processed_events', leaseMs = 30_000, pollMs = 100 } = options;
  const events = connection.collection<ProcessedDoc>(collection);

  /** Takes the claim on `id`; resolves with its lease, or null when `id` is already done. */
  async function claim(id: string, type: string): Promise<Date | null> {
    for (;;) {
      const lease = new Date(Date.now() + leaseMs);
      try {
        await events.insertOne({ _id: id, type, status: 'processing', leaseUntil: lease });
        return lease;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      const held = await events.findOne({ _id: id });
      if (!held) continue; // released in between: claim again
      if (held.status === 'done') return null;
      if (held.leaseUntil && held.leaseUntil.getTime() <= Date.now()) {
        // The holder died (or overran its lease): take the claim over, if nobody else did.
        const taken = await events.updateOne(
          { _id: id, status: 'processing', leaseUntil: held.leaseUntil },
          { $set: { leaseUntil: lease } },
        );
        if (taken.modifiedCount === 1) return lease;
        continue;
      }
      await sleep(pollMs);
    }
  }

  return {
    async runOnce(id, type, fn) {
      const lease = await claim(id, type);
      if (!lease) return false;
      try {
        await fn();
      } catch (err) {
        await events
          .deleteOne({ _id: id, status: 'processing', leaseUntil: lease })
          .catch(() => undefined);
        throw err;
      }
      await events.updateOne(
        { _id: id },
        { $set: { status: 'done', processedAt: new Date() }, $unset: { leaseUntil: '' } },
      );
      return true;
    },
    async isProcessed(id) {
      const doc = await events.findOne({ _id: id });
      return doc?.status === 'done';
    },
  };
}

/**
 * Wraps an event handler so that each event id is applied once:
 * `handler: idempotent(store, async (event) => …)`.
 */
export function idempotent<E extends { id: string; type: string }, A extends unknown[]>(
  store: ProcessedStore,
  handler: (event: E, ...rest: A) => Promise<void> | void,
): (event: E, ...rest: A) => Promise<void> {
  return async (event, ...rest) => {
    await store.runOnce(event.id, event.type, () => handler(event, ...rest));
  };
}
