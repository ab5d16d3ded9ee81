import type { ContentCollections } from './collections';
import type { CountersDoc, OwnerKey } from './layout';

// An owner's counters (text, image, usage), one document whose `_id` is the owner key.

export function createCountersRepository(c: ContentCollections) {
  return {
    findByKey: (key: OwnerKey) => c.counters.findOne({ _id: key }),

    /** The counts the stats page shows, without the memory of applied operations. */
    findCounts: (key: OwnerKey) => c.counters.findOne({ _id: key }, { projection: { applied: 0 } }),

    async isClosed(key: OwnerKey): Promise<boolean> {
      const counters = await c.counters.findOne({ _id: key }, { projection: { closed: 1 } });
      return counters?.closed === true;
    },

    save: (doc: CountersDoc) => {
      const { _id: key, ...fields } = doc;
      return c.counters.replaceOne({ _id: key }, fields, { upsert: true });
    },
  };
}

export type CountersRepository = ReturnType<typeof createCountersRepository>;
