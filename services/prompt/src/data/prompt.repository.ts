import type { Model } from 'mongoose';
import {
  live,
  notDeleted,
  outboxDelete,
  outboxInsert,
  outboxUpdate,
  type Envelope,
} from '@aict/service-kit';
import { docKey, type KeyedLock } from '@aict/service-kit';
import { withoutOutbox } from './outbox-fields';
import type { PromptRecord } from './prompt.model';

/** The fields a rebuild of the summaries reads (no template). */
const SUMMARY_PROJECTION = { template: 0 } as const;

export type PromptSummaryFields = Omit<PromptRecord, 'template'>;

export type PromptChanges = {
  set: Partial<Omit<PromptRecord, '_id' | 'rev' | 'createdAt' | 'workspaceId' | 'userId'>>;
  unset?: Array<'description'>;
};

/**
 * Prompts, read and written by `_id` (the fast path on both engines). Every write carries its
 * events (the outbox: one document write) and increments `rev`; writes of one prompt take its
 * lock (see KeyedLock), as do the outbox flushes.
 */
export function createPromptRepository(Prompt: Model<PromptRecord>, locks: KeyedLock) {
  const locked = <T>(id: string, work: () => Promise<T>) => locks.run(docKey(Prompt, id), work);
  return {
    /** A live prompt (not deleted), or null. */
    async findById(id: string): Promise<PromptRecord | null> {
      return live(await Prompt.findById(id).lean<PromptRecord>());
    },

    /** The prompt even when it is being deleted (a tombstone), with `deleted` set then. */
    async findIncludingDeleted(id: string): Promise<(PromptRecord & { deleted: boolean }) | null> {
      const doc = await Prompt.findOne({ _id: id }).lean<PromptRecord & { _deletedAt?: Date }>();
      if (!doc) return null;
      return { ...withoutOutbox<PromptRecord>(doc), deleted: doc._deletedAt !== undefined };
    },

    async insert(record: PromptRecord, events: Envelope[]): Promise<void> {
      await Prompt.collection.insertOne(outboxInsert(record, events) as never);
    },

    /**
     * Applies the changes if the prompt is still at `rev` (compare and set); the prompt after,
     * or null when it changed meanwhile or is gone.
     */
    async updateIfUnchanged(
      id: string,
      rev: number,
      changes: PromptChanges,
      events: Envelope[],
    ): Promise<PromptRecord | null> {
      const update: Record<string, unknown> = { $set: changes.set, $inc: { rev: 1 } };
      if (changes.unset?.length)
        update.$unset = Object.fromEntries(changes.unset.map((field) => [field, '']));
      // The driver's own call: FerretDB v1 refuses a projection on findAndModify (mongoose
      // would send one to hide `_outbox`).
      const doc = await locked(id, () =>
        Prompt.collection.findOneAndUpdate(
          notDeleted({ _id: id, rev }) as never,
          outboxUpdate(update, events) as never,
          { returnDocument: 'after' },
        ),
      );
      return doc ? withoutOutbox<PromptRecord>(doc) : null;
    },

    /** Marks the prompt deleted with its events (the outbox relay removes it for good). */
    async markDeleted(id: string, events: Envelope[]): Promise<PromptRecord | null> {
      const doc = await locked(id, () =>
        Prompt.collection.findOneAndUpdate(
          notDeleted({ _id: id }) as never,
          { ...outboxDelete(events), $inc: { rev: 1 } } as never,
          { returnDocument: 'after' },
        ),
      );
      return doc ? withoutOutbox<PromptRecord>(doc) : null;
    },

    /** A workspace's live prompts without templates (repairs and clean-up only). */
    async listOfWorkspace(workspaceId: number): Promise<PromptSummaryFields[]> {
      return Prompt.find(notDeleted({ workspaceId }), SUMMARY_PROJECTION).lean<
        PromptSummaryFields[]
      >();
    },

    /** Every live public prompt without templates (repairs only). */
    async listPublic(): Promise<PromptSummaryFields[]> {
      return Prompt.find(notDeleted({ isPublic: true }), SUMMARY_PROJECTION).lean<
        PromptSummaryFields[]
      >();
    },
  };
}

export type PromptRepository = ReturnType<typeof createPromptRepository>;
