import { LruCache } from '@aict/service-kit';
import type { ContentCollections } from './collections';
import {
  storedThread,
  threadOf,
  type ContentRecord,
  type OwnerKey,
  type ReviewCopy,
  type Scope,
  type ThreadDoc,
  type TurnItem,
} from './layout';

// The content records and their threads. Every read and write but the workspace clean-up is
// by `_id` (ARCHITECTURE "Data on both engines"); the driver returns plain documents.

export const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/** How many record ids a process remembers as stored (about 60 bytes each). */
export const KNOWN_RECORDS = 20_000;

export function createContentRepository(c: ContentCollections) {
  // Records this process wrote or found: a record stays (deleting one leaves its tombstone)
  // until its workspace is cleaned up, which forgets them all. The second copy of a
  // generation (request/reply and event) asks for a record the first has just written.
  const known = new LruCache<string, true>(KNOWN_RECORDS);
  return {
    findById: (id: string) => c.contents.findOne({ _id: id }),

    async exists(id: string): Promise<boolean> {
      if (known.get(id)) return true;
      const found = (await c.contents.findOne({ _id: id }, { projection: { _id: 1 } })) !== null;
      if (found) known.set(id, true);
      return found;
    },

    /** Whether this process wrote or found the record lately (no read). */
    knownToExist: (id: string) => known.get(id) === true,

    /** Whether the record is there and not deleted (its tombstone counts as deleted). */
    async isLive(id: string): Promise<boolean> {
      const current = await c.contents.findOne({ _id: id }, { projection: { deletedAt: 1 } });
      return current !== null && !current.deletedAt;
    },

    /** Inserts the record; one already there (an earlier attempt that crashed) is kept. */
    async insertOnce(record: ContentRecord): Promise<void> {
      try {
        await c.contents.insertOne(record);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
      known.set(record._id, true);
    },

    /** Where the record sits in each history scope (its pages), for a later removal. */
    setPlacement: (id: string, at: Partial<Record<Scope, number>>) =>
      c.contents.updateOne({ _id: id }, { $set: { at } }),

    /** The record becomes a tombstone: a late copy of its generation stays out. */
    tombstone: (id: string, deletedAt: Date) =>
      c.contents.updateOne(
        { _id: id },
        { $set: { deletedAt, title: '', content: '', metadata: '{}' } },
      ),

    /** The record's copy of its review (the review chain holds the truth). */
    setReview: (id: string, review: ReviewCopy) =>
      c.contents.updateOne({ _id: id }, { $set: { review } }),

    deleteOfWorkspace: (workspaceId: number) => {
      known.clear();
      return c.contents.deleteMany({ workspaceId });
    },

    findThread: async (threadId: string): Promise<ThreadDoc | null> => {
      const stored = await c.threads.findOne({ _id: threadId });
      return stored && threadOf(stored);
    },

    /** Writes the thread's turns; `create` also when it does not exist yet. */
    saveThread: (threadId: string, key: OwnerKey, turns: TurnItem[], create: boolean) => {
      const { _id, ...doc } = storedThread({ _id: threadId, key, turns });
      return create
        ? c.threads.replaceOne({ _id }, doc, { upsert: true })
        : c.threads.replaceOne({ _id }, doc);
    },

    deleteThread: (threadId: string) => c.threads.deleteOne({ _id: threadId }),

    deleteThreadsOf: (key: OwnerKey) => c.threads.deleteMany({ key }),
  };
}

export type ContentRepository = ReturnType<typeof createContentRepository>;
