/**
 * Transactional outbox without multi-document transactions (FerretDB v1 has none).
 *
 * A state change and the events announcing it are written in ONE document update, which
 * both engines apply atomically: the aggregate document carries its pending events in an
 * `_outbox` array.
 *
 *   write    Model.updateOne({ _id }, outboxUpdate({ $set: { name } }, [bus.envelope('x.updated', …)]))
 *            → `$set` and `$push: { _outbox: { $each: envelopes } }` in the same update
 *   publish  relay.flush(Model, _id) (or flushLater): read `_outbox`, publish with confirms,
 *            then remove exactly those entries (`$pullAll`; FerretDB v1 ignores `$pull`)
 *   recover  relay.watch(Model) retries, every `intervalMs` and by `_id`, the documents whose
 *            flush failed in this process (the broker down), and sweeps the collection for
 *            documents holding events older than `minAgeMs` at start and every `fullSweepMs`
 *            (a crash between the write and the publish: the restarted process's first
 *            sweep, or another replica's next one, publishes them)
 *   delete   Model.updateOne({ _id }, outboxDelete([envelope])) marks the document with
 *            `_deletedAt` (a tombstone) and queues the events; the relay deletes the
 *            document for good once they are published. Repositories read through
 *            `notDeleted(filter)` so a tombstone is already gone for the product.
 *
 * A crash after the publish and before the removal publishes the events again: consumers
 * are idempotent on the event id, so that is harmless. Add `outboxPlugin` to the schema:
 * with mongoose's strict mode an undeclared `_outbox` would be silently dropped.
 */
import { Schema, type Model, type mongo } from 'mongoose';
import type { Logger } from '../logger';
import type { Bus } from './bus';
import { envelopeShape, type Envelope } from './envelope';

export const OUTBOX_FIELD = '_outbox';
export const DELETED_FIELD = '_deletedAt';

/** Declares `_outbox` (hidden from normal reads) and `_deletedAt`, and the sweep's indexes (MongoDB). */
export function outboxPlugin(schema: Schema): void {
  schema.add({
    [OUTBOX_FIELD]: { type: [Schema.Types.Mixed], default: undefined, select: false },
    [DELETED_FIELD]: { type: Date, default: undefined },
  });
  schema.index({ [`${OUTBOX_FIELD}.occurredAt`]: 1 });
  schema.index({ [DELETED_FIELD]: 1 });
}

/**
 * Adds the events to an update so that they are written with it, atomically. Plain
 * fields of the update are moved under `$set`, as mongoose would.
 */
export function outboxUpdate<U extends object>(update: U, envelopes: readonly Envelope[]): U {
  const ops: Record<string, unknown> = {};
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(update))
    (key.startsWith('$') ? ops : plain)[key] = value;
  if (Object.keys(plain).length > 0) ops.$set = { ...plain, ...(ops.$set as object | undefined) };
  if (envelopes.length === 0) return ops as U;
  const push = { ...(ops.$push as Record<string, unknown> | undefined) };
  if (OUTBOX_FIELD in push) throw new Error('outboxUpdate: the update already pushes to _outbox');
  push[OUTBOX_FIELD] = { $each: [...envelopes] };
  ops.$push = push;
  return ops as U;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/**
 * A value as mongoose stores it in a document (its `minimize`: undefined values and empty
 * objects dropped, also in nested objects and in objects inside lists), so that `$pullAll`
 * of an event the caller holds matches the stored one.
 */
export function storedForm<T>(value: T): T {
  if (Array.isArray(value)) return value.map(storedForm) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const stored = storedForm(field);
    if (stored === undefined || (isPlainObject(stored) && Object.keys(stored).length === 0))
      continue;
    out[key] = stored;
  }
  return out as T;
}

/** A new document with its first events: `Model.create(outboxInsert({ … }, [envelope]))`. */
export function outboxInsert<T extends object>(
  doc: T,
  envelopes: readonly Envelope[],
): T & { _outbox: Envelope[] } {
  return { ...doc, [OUTBOX_FIELD]: [...envelopes] } as T & { _outbox: Envelope[] };
}

/** The update that deletes a document with its events: tombstone now, hard delete by the relay. */
export function outboxDelete(envelopes: readonly Envelope[]) {
  return {
    $set: { [DELETED_FIELD]: new Date() },
    $push: { [OUTBOX_FIELD]: { $each: [...envelopes] } },
  };
}

/**
 * A document read by `_id` alone, or null when it is missing or a tombstone:
 * `live(await Model.findById(id).lean())`. Reads by `_id` use it rather than
 * `notDeleted({ _id })`: on FerretDB v1 a filter of `_id` and another condition that matches
 * nothing (a missing or deleted document) scans the whole collection, `_id` alone does not.
 */
export function live<T extends object>(doc: T | null | undefined): T | null {
  return doc && (doc as Record<string, unknown>)[DELETED_FIELD] == null ? doc : null;
}

/** A filter that leaves tombstoned documents out: `Model.find(notDeleted({ workspaceId }))`. */
export function notDeleted<F extends object>(filter: F): F & { _deletedAt: { $exists: false } } {
  return { ...filter, [DELETED_FIELD]: { $exists: false } } as F & {
    _deletedAt: { $exists: false };
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any model with outboxPlugin
export type OutboxModel = Model<any>;

export interface SweepOptions {
  /** Documents read per query. Default 100. */
  batchSize?: number;
  /** Leave events younger than this to the writer's own flush. Default 1000 ms. */
  minAgeMs?: number;
}

export interface WatchOptions extends SweepOptions {
  /** Pause between retries of the documents whose flush failed here. Default 5000 ms. */
  intervalMs?: number;
  /**
   * Pause between sweeps of the whole collection. Default 60 s; the first runs at once. On
   * FerretDB a sweep reads every document (its filter is no `_id`), so it is the slow path:
   * it only finds events whose writer died before flushing them.
   */
  fullSweepMs?: number;
  /** How a document is flushed (e.g. under a lock). Default: the relay's `flush`. */
  flushWith?: (model: OutboxModel, docId: unknown) => Promise<number>;
}

/** Documents remembered per collection for a retry by `_id`; beyond it, the next pass sweeps. */
const MAX_RETRIES = 10_000;

export interface OutboxRelay {
  /**
   * Publishes the document's pending events (confirmed), then removes them; how many were
   * published. `inserted`: the events the caller's own insert of the document carried
   * (`outboxInsert`), published and removed without reading the document back.
   */
  flush(model: OutboxModel, docId: unknown, inserted?: readonly Envelope[]): Promise<number>;
  /** `flush` in the background (a failure is logged; the sweep publishes later). */
  flushLater(model: OutboxModel, docId: unknown, inserted?: readonly Envelope[]): void;
  /** One pass over the documents holding events older than `minAgeMs`; how many were published. */
  sweep(
    model: OutboxModel,
    options?: SweepOptions & Pick<WatchOptions, 'flushWith'>,
  ): Promise<number>;
  /** Retries failed flushes and sweeps (see WatchOptions) until the returned function (or `close`) stops it. */
  watch(model: OutboxModel, options?: WatchOptions): () => Promise<void>;
  /** Stops the watchers and waits for flushes in progress. */
  close(): Promise<void>;
}

export interface OutboxRelayOptions {
  bus: Pick<Bus, 'publishEnvelopes'>;
  logger: Logger;
  /** The watches' default `fullSweepMs` (the service's `OUTBOX_SWEEP_MS`). */
  fullSweepMs?: number;
}

export function createOutboxRelay({
  bus,
  logger,
  fullSweepMs: defaultSweepMs = 60_000,
}: OutboxRelayOptions): OutboxRelay {
  const log = logger.child({ component: 'outbox' });
  /** One flush at a time per document (a sweep and a writer's flush would publish twice). */
  const running = new Map<string, Promise<number>>();
  const watchers = new Set<() => Promise<void>>();
  /** Per collection, the documents whose last flush here failed (by key), for a retry by `_id`. */
  const failed = new Map<string, { ids: Map<string, unknown>; overflow: boolean }>();

  function failedOf(collection: string) {
    let entry = failed.get(collection);
    if (!entry) failed.set(collection, (entry = { ids: new Map(), overflow: false }));
    return entry;
  }

  function castId(model: OutboxModel, docId: unknown): unknown {
    const path = model.schema.path('_id');
    return path ? path.cast(docId) : docId;
  }

  async function flushNow(
    model: OutboxModel,
    id: unknown,
    inserted?: readonly Envelope[],
  ): Promise<number> {
    const collection = model.collection;
    const byId = { _id: id } as mongo.Filter<mongo.Document>;
    if (inserted) {
      // The document was just written with exactly these events (a new document: no
      // tombstone): no read of it (FerretDB decodes a whole document for any read of it, and
      // a generation holds its whole text). Events another writer pushed meanwhile stay.
      // As stored (what a sweep would publish, and what the `$pullAll` must match).
      const events = inserted.map(storedForm);
      if (events.length === 0) return 0;
      await bus.publishEnvelopes(events);
      await collection.updateOne(byId, {
        $pullAll: { [OUTBOX_FIELD]: events },
      } as unknown as mongo.UpdateFilter<mongo.Document>);
      return events.length;
    }
    const doc = await collection.findOne(byId, {
      projection: { [OUTBOX_FIELD]: 1, [DELETED_FIELD]: 1 },
    });
    if (!doc) return 0;
    const entries: mongo.Document[] = Array.isArray(doc[OUTBOX_FIELD]) ? doc[OUTBOX_FIELD] : [];
    const events = entries.filter(
      (entry) => envelopeShape.safeParse(entry).success,
    ) as unknown as Envelope[];
    if (events.length < entries.length) {
      log.error(
        {
          collection: collection.collectionName,
          docId: String(id),
          dropped: entries.length - events.length,
        },
        'malformed outbox entries dropped',
      );
    }
    if (events.length > 0) await bus.publishEnvelopes(events);
    // Exactly the entries read: events pushed meanwhile stay for the next flush.
    if (entries.length > 0) {
      const pull = {
        $pullAll: { [OUTBOX_FIELD]: entries },
      } as unknown as mongo.UpdateFilter<mongo.Document>;
      await collection.updateOne(byId, pull);
    }
    if (doc[DELETED_FIELD]) {
      await collection.deleteOne({
        ...byId,
        [DELETED_FIELD]: { $exists: true },
        [`${OUTBOX_FIELD}.0`]: { $exists: false },
      });
    }
    return events.length;
  }

  function flush(
    model: OutboxModel,
    docId: unknown,
    inserted?: readonly Envelope[],
  ): Promise<number> {
    const id = castId(model, docId);
    const key = `${model.collection.collectionName}\u0000${String(id)}`;
    const previous = running.get(key);
    const next = (previous ? previous.catch(() => 0) : Promise.resolve(0)).then(() =>
      flushNow(model, id, inserted),
    );
    running.set(key, next);
    const forget = () => {
      if (running.get(key) === next) running.delete(key);
    };
    const retries = failedOf(model.collection.collectionName);
    const idKey = String(id);
    next.then(
      () => {
        forget();
        retries.ids.delete(idKey);
      },
      () => {
        forget();
        if (retries.ids.size < MAX_RETRIES) retries.ids.set(idKey, id);
        else retries.overflow = true;
      },
    );
    return next;
  }

  async function sweep(
    model: OutboxModel,
    options: SweepOptions & Pick<WatchOptions, 'flushWith'> = {},
  ): Promise<number> {
    const { batchSize = 100, minAgeMs = 1000, flushWith = flush } = options;
    const cutoff = new Date(Date.now() - minAgeMs);
    // Documents holding an event older than the cutoff, and tombstones left behind by a
    // crash between the publish and the hard delete. (Indexed on MongoDB; FerretDB scans.)
    const filter = {
      $or: [
        { [`${OUTBOX_FIELD}.occurredAt`]: { $lte: cutoff.toISOString() } },
        { [DELETED_FIELD]: { $lte: cutoff } },
      ],
    };
    const seen = new Set<string>();
    let published = 0;
    for (;;) {
      const docs = await model.collection
        .find(filter, { projection: { _id: 1 }, limit: batchSize })
        .toArray();
      const fresh = docs.filter((doc) => !seen.has(String(doc._id)));
      if (fresh.length === 0) break;
      for (const doc of fresh) {
        seen.add(String(doc._id));
        published += await flushWith(model, doc._id);
      }
      if (docs.length < batchSize) break;
    }
    return published;
  }

  /** Flushes again, by `_id`, the documents whose flush failed here; how many were published. */
  async function retryFailed(
    model: OutboxModel,
    flushWith: NonNullable<WatchOptions['flushWith']>,
  ): Promise<number> {
    let published = 0;
    for (const id of [...failedOf(model.collection.collectionName).ids.values()])
      published += await flushWith(model, id);
    return published;
  }

  function watch(model: OutboxModel, options: WatchOptions = {}): () => Promise<void> {
    const {
      intervalMs = 5000,
      fullSweepMs = defaultSweepMs,
      flushWith = flush,
      ...sweepOptions
    } = options;
    const collection = model.collection.collectionName;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let pass: Promise<void> | null = null;
    let nextSweepAt = 0;
    const tick = () => {
      const retries = failedOf(collection);
      const full = Date.now() >= nextSweepAt || retries.overflow;
      if (full) {
        nextSweepAt = Date.now() + fullSweepMs;
        retries.overflow = false;
      }
      pass = (full ? sweep(model, { ...sweepOptions, flushWith }) : retryFailed(model, flushWith))
        .then(
          (published) => {
            if (published > 0)
              log.info({ collection, published }, 'outbox sweep published pending events');
          },
          (err: unknown) => {
            if (full) nextSweepAt = 0; // the next pass sweeps again
            log.warn({ err, collection }, 'outbox sweep failed; next pass will retry');
          },
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
    const stop = async () => {
      stopped = true;
      clearTimeout(timer);
      watchers.delete(stop);
      await pass;
    };
    watchers.add(stop);
    return stop;
  }

  return {
    flush,
    flushLater(model, docId, inserted) {
      flush(model, docId, inserted).catch((err: unknown) =>
        log.warn(
          { err, collection: model.collection.collectionName },
          'outbox flush failed; the sweep will retry',
        ),
      );
    },
    sweep,
    watch,
    async close() {
      await Promise.all([...watchers].map((stop) => stop()));
      await Promise.allSettled([...running.values()]);
    },
  };
}
