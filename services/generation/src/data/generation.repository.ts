import type { Model } from 'mongoose';
import { outboxInsert, type Envelope } from '@aict/service-kit';
import type { GenerationRecord } from './generation.model';

/**
 * Generation records, read by `_id` (the fast path on both engines); reads return plain
 * objects. The insert carries its `generation.completed` event (the outbox: one write).
 */
export function createGenerationRepository(Generation: Model<GenerationRecord>) {
  return {
    findById: (id: string) => Generation.findById(id).lean<GenerationRecord>(),

    /** What the orphan sweep needs to know whether the record points at an image. */
    findImageOf: (id: string) =>
      Generation.findById(id)
        .select({ imageKey: 1, removedAt: 1 })
        .lean<Pick<GenerationRecord, 'imageKey' | 'removedAt'>>(),

    async insert(record: GenerationRecord, events: Envelope[]): Promise<void> {
      await Generation.create(outboxInsert(record, events));
    },

    /** Its image is gone: the record stays as a tombstone. */
    markRemoved: (id: string) =>
      Generation.updateOne({ _id: id }, { $set: { removedAt: new Date() } }),

    markRemovedInWorkspace: (workspaceId: number) =>
      Generation.updateMany(
        { workspaceId, removedAt: { $exists: false } },
        { $set: { removedAt: new Date() } },
      ),
  };
}

export type GenerationRepository = ReturnType<typeof createGenerationRepository>;
