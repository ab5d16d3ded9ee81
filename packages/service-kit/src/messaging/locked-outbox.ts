import type { Logger } from '../logger';
import type { KeyedLock } from './keyed-lock';
import type { Envelope } from './envelope';
import type { OutboxModel, OutboxRelay, WatchOptions } from './outbox';

/** The lock key of a document: `<collection>:<_id>`. */
export const docKey = (model: OutboxModel, id: unknown) =>
  `${model.collection.collectionName}:${String(id)}`;

export interface LockedOutbox {
  /**
   * Publishes the document's pending events soon (a failure is logged; the watch retries).
   * `inserted`: the events the caller's insert of the document carried (see the relay's flush).
   */
  flushLater(model: OutboxModel, id: unknown, inserted?: readonly Envelope[]): void;
  /** Retries failed flushes and sweeps for events left behind (see the relay's watch) until closed. */
  watch(
    model: OutboxModel,
    options?: Pick<WatchOptions, 'intervalMs' | 'fullSweepMs' | 'minAgeMs'>,
  ): void;
  close(): Promise<void>;
}

/**
 * service-kit's outbox relay, with every flush taken under the document's lock, so that a
 * flush (read `_outbox`, publish, `$pullAll`) never overlaps a write of the same document
 * (see KeyedLock: on FerretDB v1 the `$pullAll` could otherwise drop an event pushed
 * meanwhile). The relay's watch flushes through the same lock.
 */
export function createLockedOutbox(
  relay: OutboxRelay,
  locks: KeyedLock,
  logger: Logger,
): LockedOutbox {
  const log = logger.child({ component: 'outbox' });
  const flush = (model: OutboxModel, id: unknown, inserted?: readonly Envelope[]) =>
    locks.run(docKey(model, id), () => relay.flush(model, id, inserted));

  return {
    flushLater(model, id, inserted) {
      flush(model, id, inserted).catch((err: unknown) =>
        log.warn(
          { err, collection: model.collection.collectionName },
          'outbox flush failed; the watch will retry',
        ),
      );
    },
    watch(model, options = {}) {
      relay.watch(model, { ...options, flushWith: flush });
    },
    close: () => relay.close(),
  };
}
