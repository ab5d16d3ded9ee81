import { Schema, type Connection, type Model } from 'mongoose';
import type { GeneratedContent } from '@aict/contracts';
import { outboxPlugin } from '@aict/service-kit';

/**
 * One finished generation, kept by this service: the hand-over to the content service (its
 * outbox holds `generation.completed`), the thread of a reply (read by `_id`), the owner of a
 * generated image, and what an Idempotency-Key replays.
 */
export interface GenerationRecord extends Omit<GeneratedContent, 'id' | 'createdAt'> {
  _id: string;
  createdAt: Date;
  /** The instruction (filled template) of the thread's first message; replies send it again. */
  instruction: string | null;
  /** Where the generated image lives in our bucket. */
  imageKey: string | null;
  /** Set when the content was deleted (its image is gone). */
  removedAt?: Date;
}

const schema = new Schema<GenerationRecord>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: Number, default: null },
    userId: { type: String, required: true },
    title: { type: String, required: true },
    content: { type: String, default: '' },
    contentType: { type: String, required: true },
    model: { type: String, required: true },
    language: { type: String, required: true },
    promptId: { type: String, default: null },
    parentId: { type: String, default: null },
    threadId: { type: String, required: true },
    metadata: { type: Schema.Types.Mixed, default: {} },
    usage: { type: Schema.Types.Mixed, default: {} },
    createdAt: { type: Date, required: true },
    instruction: { type: String, default: null },
    imageKey: { type: String, default: null },
    removedAt: { type: Date, default: undefined },
    voiceFlags: { type: [String], default: undefined },
    promptVersion: { type: Number, default: undefined },
    costMicros: { type: Number, default: undefined },
  },
  { collection: 'generations', versionKey: false, minimize: false },
);
schema.index({ workspaceId: 1, createdAt: -1 });
schema.plugin(outboxPlugin);

export const generationModel = (db: Connection): Model<GenerationRecord> =>
  (db.models.Generation as Model<GenerationRecord>) ??
  db.model<GenerationRecord>('Generation', schema);

/** The record as the content service stores it. */
export function toGeneratedContent(record: GenerationRecord): GeneratedContent {
  return {
    id: record._id,
    workspaceId: record.workspaceId,
    userId: record.userId,
    title: record.title,
    content: record.content,
    contentType: record.contentType,
    model: record.model,
    language: record.language,
    promptId: record.promptId,
    parentId: record.parentId,
    threadId: record.threadId,
    metadata: record.metadata,
    usage: record.usage,
    createdAt: record.createdAt.toISOString(),
    ...(record.voiceFlags?.length ? { voiceFlags: record.voiceFlags } : {}),
    ...(record.promptVersion ? { promptVersion: record.promptVersion } : {}),
    ...(typeof record.costMicros === 'number' ? { costMicros: record.costMicros } : {}),
  };
}
