import type { Logger } from '../logger';
import type { KeyedLock } from './keyed-lock';
import { DELETED_FIELD, OUTBOX_FIELD, type OutboxModel, type OutboxRelay } from './outbox';

/** The lock key of a document: `<collection>:<_id>`. */
export const docKey = (model: OutboxModel, id: unknown) =>
  `${model.collection.collectionName}:${String(id)}`;

export interface LockedOutbox {
  /** Publishes the document's pending events soon (a failure is logged; the sweep retries). */
  flushLater(model: OutboxModel, id: unknown): void;
  /** Sweeps the collection for events left behind (a crash, a broker outage) until closed. */
  watch(model: OutboxModel, options?: { intervalMs?: number; minAgeMs?: number }): void;
  close(): Promise<void>;
}

/**
 * service-kit's outbox relay, with every flush taken under the document's lock, so that a
 * flush (read `_outbox`, publish, `$pullAll`) never overlaps a write of the same document
 * (see KeyedLock: on FerretDB v1 the `$pullAll` could otherwise drop an event pushed
 * meanwhile). The sweep is the relay's, driven from here for the same reason.
 */
export function createLockedOutbox(
  relay: OutboxRelay,
  locks: KeyedLock,
  logger: Logger,
): LockedOutbox {
  const log = logger.child({ component: 'outbox' });
  const stops = new Set<() => void>();
  const passes = new Set<Promise<void>>();
  let closed = false;

  const flush = (model: OutboxModel, id: unknown) =>
    locks.run(docKey(model, id), () => relay.flush(model, id));

  async function sweep(model: OutboxModel, minAgeMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - minAgeMs);
    const docs = await model.collection
      .find(
        {
          $or: [
            { [`${OUTBOX_FIELD}.occurredAt`]: { $lte: cutoff.toISOString() } },
            { [DELETED_FIELD]: { $lte: cutoff } },
          ],
        },
        { projection: { _id: 1 }, limit: 500 },
      )
      .toArray();
    let published = 0;
    for (const doc of docs) published += await flush(model, doc._id);
    return published;
  }

  return {
    flushLater(model, id) {
      flush(model, id).catch((err: unknown) =>
        log.warn(
          { err, collection: model.collection.collectionName },
          'outbox flush failed; the sweep will retry',
        ),
      );
    },
    watch(model, { intervalMs = 5000, minAgeMs = 1000 } = {}) {
      const collection = model.collection.collectionName;
      let timer: NodeJS.Timeout | undefined;
      const tick = () => {
        const pass = sweep(model, minAgeMs)
          .then(
            (published) => {
              if (published > 0)
                log.info({ collection, published }, 'outbox sweep published pending events');
            },
            (err: unknown) =>
              log.warn({ err, collection }, 'outbox sweep failed; next pass will retry'),
          )
          .finally(() => {
            passes.delete(pass);
            if (!closed) timer = setTimeout(tick, intervalMs).unref();
          });
        passes.add(pass);
      };
      stops.add(() => clearTimeout(timer));
      tick();
    },
    async close() {
      closed = true;
      for (const stop of stops) stop();
      await Promise.allSettled([...passes]);
      await relay.close();
    },
  };
}
