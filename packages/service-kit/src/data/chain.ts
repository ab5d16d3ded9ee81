import { Schema, type mongo } from 'mongoose';
import { OUTBOX_FIELD } from '../messaging/outbox';
import { isDuplicateKey } from './duplicate-key';
import { LruCache } from './lru-cache';

// An append-only chain of immutable versions, the one write that is atomic on BOTH engines.
//
// Measured on FerretDB v1 (SQLite back end): an update is read-modify-write of the whole
// document without isolation, so concurrent updates of one document lose each other, even a
// `$inc` or a filter used as compare-and-set (30 concurrent `updateOne({ _id, v: 0 }, …)`
// modified the document up to 26 times). An insert is atomic: `_id` is the table's primary key.
// So a document that concurrent requests must change exactly is a chain:
//
//   `<chain>@<n>` (n = 1, 2, …)  immutable versions; writing version n+1 is an INSERT, which
//                                fails with a duplicate key when someone else wrote n+1 first
//                                (then read the new latest and try again): compare-and-set.
//   `<chain>`                    the head: a hint of the latest n (`$max`, may lag or, after
//                                lost updates, fall back a little); readers check n+1, n+2, …
//
// Every read and write is by `_id`. After writing version n, version n-keep is emptied to a
// tombstone `{ gone: true }` (unless it still holds outbox events), and the tombstone of
// n-keep-PURGE_AFTER goes. An `_id` is never free again while a writer could still aim at it:
// a reader whose walk was slow (its next version emptied meanwhile) walks on through the
// tombstone instead of taking an old version for the latest and writing a version the others
// no longer read (a lost write; seen under load with a deleted version). Only a head that
// fell behind every stored version makes a reader look for the latest by a query on `chain`
// (a scan on FerretDB; never in normal operation).

export interface ChainLink<V> {
  _id: string;
  chain: string;
  n: number;
  value: V;
  at: Date;
}

/** A version emptied once it fell behind the kept ones: it holds its `_id` and n only. */
interface Tombstone {
  _id: string;
  chain: string;
  n: number;
  gone: true;
  at: Date;
}

type StoredLink<V> = ChainLink<V> | Tombstone;

const isGone = <V>(link: StoredLink<V>): link is Tombstone => 'gone' in link && link.gone === true;

const pendingEvents = (link: object) => {
  const events = (link as { [OUTBOX_FIELD]?: unknown })[OUTBOX_FIELD];
  return Array.isArray(events) && events.length > 0;
};

/** Tombstones kept behind the emptied versions (far more than any reader can fall behind). */
const PURGE_AFTER = 1000;

interface ChainHead {
  _id: string;
  head: number;
}

export interface ChainOptions {
  /** Versions kept behind the latest (more than the writers that may race on one chain). */
  keep: number;
  /**
   * The chain's older versions may be removed by `dropBefore`. Every append then checks that
   * its predecessor still exists (one more read by `_id`): a writer that read a version before
   * the drop would otherwise write into the emptied past, where no reader looks.
   */
  dropsBefore?: boolean;
  /**
   * For a chain that no process ever drops (no `drop`, no `dropsBefore`) and whose versions
   * carry no outbox events (usage counters, tallies, prices): the latest version this process
   * read or wrote of up to `latestCache` chains is kept, so `latest()` reads only the next
   * version (a version never changes once written: if the next one is absent, the kept one is
   * still the latest), and retention empties a version without reading it first.
   */
  latestCache?: number;
  /**
   * The head (a hint) is moved by every `headEvery`-th version only (default 1: every one): a
   * reader new to the chain then walks at most `headEvery` versions past it, one read each,
   * and every other append saves a write. Below `keep` (readers walk through tombstones).
   */
  headEvery?: number;
}

export const linkId = (chain: string, n: number) => `${chain}@${n}`;

export function createChain<V>(collection: mongo.Collection, options: ChainOptions) {
  const links = collection as unknown as mongo.Collection<StoredLink<V>>;
  const heads = collection as unknown as mongo.Collection<ChainHead>;
  const headEvery = options.headEvery ?? 1;
  if (!Number.isInteger(headEvery) || headEvery < 1 || (headEvery > 1 && headEvery >= options.keep))
    throw new Error('headEvery must be 1, or a whole number below keep');
  if (options.latestCache !== undefined && options.dropsBefore)
    throw new Error('a chain with dropsBefore cannot keep its latest version (latestCache)');
  const kept =
    options.latestCache === undefined
      ? null
      : new LruCache<string, ChainLink<V>>(options.latestCache);
  /** The latest n this process has seen per chain (only grows). */
  const seen = new Map<string, number>();

  const remember = (chain: string, n: number) => {
    if (n > (seen.get(chain) ?? 0)) seen.set(chain, n);
  };
  const readLink = (chain: string, n: number) =>
    n > 0 ? links.findOne({ _id: linkId(chain, n) }) : Promise.resolve(null);

  async function walkFrom(
    chain: string,
    at: StoredLink<V> | null,
    next: StoredLink<V> | null,
  ): Promise<StoredLink<V> | null> {
    let latest = at;
    let following = next;
    while (following) {
      latest = following;
      following = await readLink(chain, latest.n + 1);
    }
    return latest;
  }

  /** The latest stored version found by a query on `chain` (a scan on FerretDB; rare). */
  async function latestByQuery(chain: string): Promise<ChainLink<V> | null> {
    const [found] = await links.find({ chain }).sort({ n: -1 }).limit(1).toArray();
    seen.set(chain, found?.n ?? 0); // forget a start that no longer exists
    const latest = found ? await walkFrom(chain, found, await readLink(chain, found.n + 1)) : null;
    // The newest version is never a tombstone (version n empties n-keep only once it exists).
    return latest && !isGone(latest) ? latest : null;
  }

  // Retention reads the link by `_id`, decides in code and writes by `_id` alone: on FerretDB
  // v1 a write by `_id` plus a condition scans the collection when it matches nothing (see
  // recordScansOnMiss) and costs more than `_id` alone when it matches. A version is never
  // changed after its insert but for the relay removing its events, so a link read with no
  // pending events cannot gain some before the write.

  /** Empties version n to a tombstone, unless it still holds outbox events. */
  async function empty(chain: string, n: number): Promise<void> {
    const id = linkId(chain, n);
    const tombstone: Omit<Tombstone, '_id'> = { chain, n, gone: true, at: new Date() };
    try {
      if (kept) {
        // No events to keep (see latestCache): emptied without a read; a tombstone again if
        // it was emptied already, nothing when its tombstone is gone too.
        await links.replaceOne({ _id: id }, tombstone);
        return;
      }
      const link = await links.findOne({ _id: id }, { projection: { gone: 1, [OUTBOX_FIELD]: 1 } });
      if (!link || isGone(link) || pendingEvents(link)) return;
      await links.replaceOne({ _id: id }, tombstone);
    } catch {
      // Retention is best effort: a version left whole is still read correctly.
    }
  }

  /** Removes version n's tombstone (a version left whole stays). */
  async function purge(chain: string, n: number): Promise<void> {
    const id = linkId(chain, n);
    try {
      const link = await links.findOne({ _id: id }, { projection: { gone: 1 } });
      if (link && isGone(link)) await links.deleteOne({ _id: id });
    } catch {
      // Best effort, as above.
    }
  }

  return {
    /** The latest version, or null when the chain has none. */
    async latest(chain: string): Promise<ChainLink<V> | null> {
      const known = seen.get(chain) ?? 0;
      const readHead = () => heads.findOne({ _id: chain }, { projection: { head: 1 } });
      // A chain this process has seen: its version and the next first, the head only when
      // someone wrote after it (usually nobody did: two reads). A new one: all three at once.
      const mine = kept?.get(chain);
      const [atKnown, afterKnown, seenHead] = await Promise.all([
        mine?.n === known ? mine : readLink(chain, known),
        readLink(chain, known + 1),
        known > 0 ? undefined : readHead(),
      ]);
      if (atKnown && !afterKnown && !isGone(atKnown)) return atKnown;
      const head = seenHead === undefined ? await readHead() : seenHead;
      const start = Math.max(known, head?.head ?? 0);
      const [at, next] =
        start === known
          ? [atKnown, afterKnown]
          : await Promise.all([readLink(chain, start), readLink(chain, start + 1)]);
      let latest: ChainLink<V> | null;
      if (start > 0 && !at) {
        // The start version is gone for good (its tombstone passed too): find the latest by query.
        latest = await latestByQuery(chain);
      } else {
        const walked = await walkFrom(chain, at, next);
        latest = walked && isGone(walked) ? await latestByQuery(chain) : walked;
      }
      if (latest) {
        remember(chain, latest.n);
        kept?.set(chain, latest);
      }
      return latest;
    },

    /** Version `n` as stored, or null when it was never written or retention emptied it. */
    async at(chain: string, n: number): Promise<ChainLink<V> | null> {
      const link = await readLink(chain, n);
      return link && !isGone(link) ? link : null;
    },

    /**
     * Writes version `n` (the latest read was n-1); false when someone else wrote it first.
     * `extra` adds fields to the version document (e.g. its outbox events).
     */
    async append(chain: string, n: number, value: V, extra: object = {}): Promise<boolean> {
      if (kept && OUTBOX_FIELD in extra)
        throw new Error('a chain that keeps its latest version (latestCache) carries no events');
      try {
        await links.insertOne({
          ...extra,
          _id: linkId(chain, n),
          chain,
          n,
          value,
          at: new Date(),
        } as ChainLink<V>);
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
      if (options.dropsBefore && n > 1 && !(await readLink(chain, n - 1))) {
        // Written behind a drop: take it back (a drop running now removes it too).
        await links.deleteOne({ _id: linkId(chain, n) });
        return false;
      }
      remember(chain, n);
      kept?.set(chain, { _id: linkId(chain, n), chain, n, value, at: new Date() });
      if (n % headEvery === 0)
        await heads
          .updateOne({ _id: chain }, { $max: { head: n } }, { upsert: true })
          .catch(() => undefined); // a hint: readers find newer versions anyway
      const emptied = n - options.keep;
      if (emptied >= 1) await empty(chain, emptied);
      if (emptied - PURGE_AFTER >= 1) await purge(chain, emptied - PURGE_AFTER);
      return true;
    },

    /**
     * Removes the versions before `n` (a query on `chain`: a scan on FerretDB; rare). Only for
     * a chain created with `dropsBefore`, whose appends refuse to write behind the drop.
     */
    async dropBefore(chain: string, n: number): Promise<void> {
      if (!options.dropsBefore)
        throw new Error('dropBefore needs a chain created with dropsBefore');
      await links.deleteMany({
        chain,
        n: { $lt: n },
        [`${OUTBOX_FIELD}.0`]: { $exists: false },
      } as mongo.Filter<StoredLink<V>>);
    },

    /** Removes the chain (versions still holding outbox events stay for the relay). */
    async drop(chain: string): Promise<void> {
      if (kept)
        throw new Error('a chain that keeps its latest version (latestCache) is never dropped');
      await links.deleteMany({ chain, [`${OUTBOX_FIELD}.0`]: { $exists: false } } as mongo.Filter<
        StoredLink<V>
      >);
      await heads.deleteOne({ _id: chain });
      seen.delete(chain);
    },
  };
}

export type Chain<V> = ReturnType<typeof createChain<V>>;

/**
 * The mongoose schema of a chain's collection (versions and heads): declares the MongoDB
 * index of the fallback query, and lets the outbox relay flush versions that carry events.
 */
export function chainSchema(): Schema {
  const schema = new Schema(
    {
      _id: { type: String, required: true },
      chain: { type: String },
      n: { type: Number },
      value: { type: Schema.Types.Mixed },
      at: { type: Date },
      head: { type: Number },
    },
    { versionKey: false, strict: false },
  );
  schema.index({ chain: 1, n: -1 });
  return schema;
}
