import { Schema, type mongo } from 'mongoose';
import { isDuplicateKey } from './outbox-fields';

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
// Every read and write is by `_id`. After writing version n, version n-keep goes (unless it
// still holds outbox events). Only a head that fell behind every kept version makes a reader
// look for the latest by a query on `chain` (a scan on FerretDB; never in normal operation).

export interface ChainLink<V> {
  _id: string;
  chain: string;
  n: number;
  value: V;
  at: Date;
}

interface ChainHead {
  _id: string;
  head: number;
}

export interface ChainOptions {
  /** Versions kept behind the latest (more than the writers that may race on one chain). */
  keep: number;
}

export const linkId = (chain: string, n: number) => `${chain}@${n}`;

export function createChain<V>(collection: mongo.Collection, options: ChainOptions) {
  const links = collection as unknown as mongo.Collection<ChainLink<V>>;
  const heads = collection as unknown as mongo.Collection<ChainHead>;
  /** The latest n this process has seen per chain (only grows). */
  const seen = new Map<string, number>();

  const remember = (chain: string, n: number) => {
    if (n > (seen.get(chain) ?? 0)) seen.set(chain, n);
  };
  const readLink = (chain: string, n: number) =>
    n > 0 ? links.findOne({ _id: linkId(chain, n) }) : Promise.resolve(null);

  async function walkFrom(
    chain: string,
    at: ChainLink<V> | null,
    next: ChainLink<V> | null,
  ): Promise<ChainLink<V> | null> {
    let latest = at;
    let following = next;
    while (following) {
      latest = following;
      following = await readLink(chain, latest.n + 1);
    }
    return latest;
  }

  return {
    /** The latest version, or null when the chain has none. */
    async latest(chain: string): Promise<ChainLink<V> | null> {
      const known = seen.get(chain) ?? 0;
      const [head, atKnown, afterKnown] = await Promise.all([
        heads.findOne({ _id: chain }, { projection: { head: 1 } }),
        readLink(chain, known),
        readLink(chain, known + 1),
      ]);
      const start = Math.max(known, head?.head ?? 0);
      const [at, next] =
        start === known
          ? [atKnown, afterKnown]
          : await Promise.all([readLink(chain, start), readLink(chain, start + 1)]);
      let latest: ChainLink<V> | null;
      if (start > 0 && !at) {
        // The start version is gone (kept versions passed it): find the latest by query.
        const [found] = await links.find({ chain }).sort({ n: -1 }).limit(1).toArray();
        seen.set(chain, found?.n ?? 0); // forget a start that no longer exists
        latest = found ? await walkFrom(chain, found, await readLink(chain, found.n + 1)) : null;
      } else {
        latest = await walkFrom(chain, at, next);
      }
      if (latest) remember(chain, latest.n);
      return latest;
    },

    /**
     * Writes version `n` (the latest read was n-1); false when someone else wrote it first.
     * `extra` adds fields to the version document (e.g. its outbox events).
     */
    async append(chain: string, n: number, value: V, extra: object = {}): Promise<boolean> {
      try {
        await links.insertOne({ ...extra, _id: linkId(chain, n), chain, n, value, at: new Date() });
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
      remember(chain, n);
      await heads
        .updateOne({ _id: chain }, { $max: { head: n } }, { upsert: true })
        .catch(() => undefined); // a hint: readers find newer versions anyway
      if (n - options.keep >= 1) {
        await links
          .deleteOne({
            _id: linkId(chain, n - options.keep),
            '_outbox.0': { $exists: false },
          } as mongo.Filter<ChainLink<V>>)
          .catch(() => undefined);
      }
      return true;
    },

    /** Removes the versions before `n` (a query on `chain`: a scan on FerretDB; rare). */
    async dropBefore(chain: string, n: number): Promise<void> {
      await links.deleteMany({
        chain,
        n: { $lt: n },
        '_outbox.0': { $exists: false },
      } as mongo.Filter<ChainLink<V>>);
    },

    /** Removes the chain (versions still holding outbox events stay for the relay). */
    async drop(chain: string): Promise<void> {
      await links.deleteMany({ chain, '_outbox.0': { $exists: false } } as mongo.Filter<
        ChainLink<V>
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
