import type { Model } from 'mongoose';
import { createChain, isDuplicateKey, LruCache } from '@aict/service-kit';
import { createTtlCache } from '../lib/ttl-cache';
import type { RateSlotDoc, TallySlotDoc, UsageEntry, UsageLimitDoc } from './usage.model';

/** A month counter's value: what was spent (estimates of running calls included). */
export interface SpentValue {
  spent: number;
}

/** A model's price as stored (a version of the chain `price:<model>`). */
export interface StoredPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  perImage: Record<string, number>;
}

/** One group's sums in a month tally. */
export interface TallyRow {
  key: string;
  costMicros: number;
  calls: number;
}

/**
 * A month tally (a version of the chain `tally:<scope>`): the sums of its slots 1..upTo.
 * Groups are lists, not maps: keys such as `gpt-3.5-turbo` cannot be field names.
 */
export interface TallyValue {
  upTo: number;
  byDay: TallyRow[];
  byUser: TallyRow[];
  byModel: TallyRow[];
  byPrompt: TallyRow[];
}

/** Versions kept behind the latest (more than the writers that may race on one chain). */
const KEEP = 64;

/**
 * Counters, prices and tallies are never dropped and carry no events: the process keeps the
 * latest version of this many chains of each (chain.ts latestCache), and reads only the next.
 */
const LATEST_KEPT = 2_000;

/**
 * Tally slots kept in the process: a slot is inserted once and never changed, so the fold
 * (every FOLD_EVERY settles) and the usage views read only the slots other processes took,
 * plus the first one missing.
 */
const SLOTS_KEPT = 4_096;

/**
 * The usage ledger (by `_id`; the month's list is a query on workspace + month), the month
 * counters and prices (chains: exact under concurrency on both engines), the limits and the
 * rate slots (by `_id`).
 */
export function createUsageRepository(
  models: {
    Ledger: Model<UsageEntry>;
    Chains: Model<unknown>;
    Limits: Model<UsageLimitDoc>;
    RateSlots: Model<RateSlotDoc>;
    TallySlots: Model<TallySlotDoc>;
  },
  /**
   * How long a limit is kept in the process: this replica's own writes drop it at once,
   * another replica's edit is seen within this time (0: read every time).
   */
  options: { limitCacheMs: number; staleMs?: number } = { limitCacheMs: 0 },
) {
  // The head moves every 8th version: a process new to a chain walks at most 8 versions.
  const chainOptions = { keep: KEEP, latestCache: LATEST_KEPT, headEvery: 8 };
  const counters = createChain<SpentValue>(models.Chains.collection as never, chainOptions);
  const prices = createChain<StoredPrice>(models.Chains.collection as never, chainOptions);
  const tallies = createChain<TallyValue>(models.Chains.collection as never, chainOptions);
  const { Ledger, Limits, RateSlots, TallySlots } = models;
  /** The highest tally slot this process has seen per scope (only grows; a hint). */
  const seenSlot = new Map<string, number>();
  const slotId = (scope: string, k: number) => `tally:${scope}:${k}`;
  const slots = new LruCache<string, TallySlotDoc>(SLOTS_KEPT);
  const limitCache = createTtlCache<number | null>(options.limitCacheMs, {
    staleMs: options.staleMs ?? 0,
  });

  return {
    counters,
    prices,
    tallies,

    /** Inserts the entry; false when an entry with its `_id` exists (the same call again). */
    async insertEntry(entry: UsageEntry): Promise<boolean> {
      try {
        await Ledger.collection.insertOne(entry as never);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    findEntry: (id: string) => Ledger.findById(id).lean<UsageEntry>(),
    updateEntry: (id: string, set: Partial<UsageEntry>) =>
      Ledger.updateOne({ _id: id }, { $set: set }),
    deleteEntry: (id: string) => Ledger.deleteOne({ _id: id }),
    /** The month's entries of a workspace (a query: a scan on FerretDB, see the README). */
    listMonth: (workspaceId: number, month: string, userId?: string) =>
      Ledger.find({ workspaceId, month, ...(userId ? { userId } : {}) })
        .sort({ startedAt: 1 })
        .lean<UsageEntry[]>(),
    /**
     * The same entries one batch at a time (the CSV export): the service never holds the
     * month, but it is still a query (a scan of the ledger on FerretDB).
     */
    streamMonth: (workspaceId: number, month: string): AsyncIterable<UsageEntry> =>
      Ledger.find({ workspaceId, month })
        .sort({ startedAt: 1 })
        .lean<UsageEntry>()
        .cursor({ batchSize: 500 }),

    /** A limit's value (kept `limitCacheMs`, see above); null when none is set. */
    readLimit: (id: string): Promise<number | null> =>
      limitCache.get(
        id,
        async () => (await Limits.findById(id).lean<UsageLimitDoc>())?.value ?? null,
      ),
    async readLimitDoc<T extends object>(id: string): Promise<T | null> {
      return (await Limits.findById(id).lean()) as T | null;
    },
    async writeLimit(id: string, value: number | null, extra: object = {}) {
      limitCache.drop(id);
      try {
        return await Limits.replaceOne(
          { _id: id },
          { value, at: new Date(), ...extra },
          { upsert: true },
        );
      } finally {
        limitCache.drop(id);
      }
    },

    /** The user caps of a workspace (a query: only the limits screen asks). */
    listCaps: (workspaceId: number) => Limits.find({ kind: 'cap', workspaceId }).lean(),

    /** Takes a rate slot; false when it is taken. */
    async takeSlot(id: string, at: Date): Promise<boolean> {
      try {
        await RateSlots.collection.insertOne({ _id: id, at } as never);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    dropSlot: (id: string) => RateSlots.deleteOne({ _id: id }),

    /** Records which tally slot the entry takes in a scope (before it takes it). */
    markTallySlot: (id: string, scopeKind: 'workspace' | 'user', k: number) =>
      Ledger.updateOne({ _id: id }, { $set: { [`tally.${scopeKind}`]: k } }),
    /** Slot k of a tally if this process took or read it (no read). */
    keptTallySlot: (scope: string, k: number) => slots.get(slotId(scope, k)),
    async readTallySlot(scope: string, k: number): Promise<TallySlotDoc | null> {
      const id = slotId(scope, k);
      const kept = slots.get(id);
      if (kept) return kept;
      const slot = await TallySlots.findById(id).lean<TallySlotDoc>();
      if (slot) slots.set(id, slot);
      return slot;
    },
    /** Takes slot k of a tally; false when it is taken. */
    async insertTallySlot(scope: string, k: number, slot: Omit<TallySlotDoc, '_id'>) {
      try {
        const doc = { ...slot, _id: slotId(scope, k) };
        await TallySlots.collection.insertOne(doc as never);
        slots.set(doc._id, doc);
      } catch (err) {
        if (isDuplicateKey(err)) {
          if (k > (seenSlot.get(scope) ?? 0)) seenSlot.set(scope, k);
          return false;
        }
        throw err;
      }
      if (k > (seenSlot.get(scope) ?? 0)) seenSlot.set(scope, k);
      return true;
    },
    seenTallySlot: (scope: string) => seenSlot.get(scope) ?? 0,
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
