import type { ContentCollections, PendingDoc } from './collections';
import { isDuplicateKey } from './content.repository';
import type { OwnerKey } from './layout';

// Writes in progress (collection `pending`, small): the repair's journal and the outbox of
// their events. Read by `_id`, and by age only by the repair.

export function createPendingRepository(c: ContentCollections) {
  return {
    /** False when that write is pending already (being done elsewhere, or repaired). */
    async insertOnce(doc: PendingDoc): Promise<boolean> {
      try {
        await c.pending.insertOne(doc);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    save: (doc: PendingDoc) => {
      const { _id: id, ...fields } = doc;
      // (The driver's WithoutId<> of a union type does not accept either member.)
      return c.pending.replaceOne({ _id: id }, fields as never, { upsert: true });
    },

    findById: (id: string) => c.pending.findOne({ _id: id }),

    /** The oldest writes a crash may have left, at most `limit`. */
    findDue: (cutoff: Date, limit: number) =>
      c.pending.find({ at: { $lte: cutoff } }, { limit }).toArray(),

    remove: (id: string) => c.pending.deleteOne({ _id: id }),

    removeOf: (key: OwnerKey) => c.pending.deleteMany({ key }),
  };
}

export type PendingRepository = ReturnType<typeof createPendingRepository>;
