import type { Model } from 'mongoose';
import { createChain } from './chain';
import { isDuplicateKey } from './duplicate-key';
import type { RateSlotDoc, UsageEntry, UsageLimitDoc } from './usage.model';

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

/** Versions kept behind the latest (more than the writers that may race on one chain). */
const KEEP = 64;

/**
 * The usage ledger (by `_id`; the month's list is a query on workspace + month), the month
 * counters and prices (chains: exact under concurrency on both engines), the limits and the
 * rate slots (by `_id`).
 */
export function createUsageRepository(models: {
  Ledger: Model<UsageEntry>;
  Chains: Model<unknown>;
  Limits: Model<UsageLimitDoc>;
  RateSlots: Model<RateSlotDoc>;
}) {
  const counters = createChain<SpentValue>(models.Chains.collection as never, { keep: KEEP });
  const prices = createChain<StoredPrice>(models.Chains.collection as never, { keep: KEEP });
  const { Ledger, Limits, RateSlots } = models;

  return {
    counters,
    prices,

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

    async readLimit(id: string): Promise<number | null> {
      const doc = await Limits.findById(id).lean<UsageLimitDoc>();
      return doc?.value ?? null;
    },
    async readLimitDoc<T extends object>(id: string): Promise<T | null> {
      return (await Limits.findById(id).lean()) as T | null;
    },
    writeLimit: (id: string, value: number | null, extra: object = {}) =>
      Limits.replaceOne({ _id: id }, { value, at: new Date(), ...extra }, { upsert: true }),

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
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
