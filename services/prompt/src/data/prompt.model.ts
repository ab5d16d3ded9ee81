import { Schema, type Connection, type Model } from 'mongoose';
import type { Category, ContentType } from '@aict/contracts';
import { outboxPlugin } from '@aict/service-kit';

/**
 * A prompt: the source of truth. Not stored here: `isDefault` (the workspace's default is its
 * own chain, default-pointer.model.ts) and the reference images (their own chain,
 * prompt-images.model.ts). `rev` grows with every write (compare and set on MongoDB).
 */
export interface PromptRecord {
  _id: string;
  workspaceId: number;
  userId: string;
  name: string;
  description?: string;
  template: string;
  /** The template's variables (contracts' parseTemplate), parsed once when it is written. */
  variables: string[];
  category: Category;
  contentType: ContentType;
  model: string;
  isPublic: boolean;
  rev: number;
  createdAt: Date;
  updatedAt: Date;
}

const promptSchema = new Schema<PromptRecord>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: Number, required: true },
    userId: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String },
    template: { type: String, required: true },
    variables: { type: [String], default: [] },
    category: { type: String, required: true },
    contentType: { type: String, required: true },
    model: { type: String, required: true },
    isPublic: { type: Boolean, required: true },
    rev: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
promptSchema.plugin(outboxPlugin);
// For MongoDB (FerretDB v1 scans whatever the filter): repairs and the workspace clean-up
// read prompts by workspace, newest first; the public summary is rebuilt from isPublic.
promptSchema.index({ workspaceId: 1, createdAt: -1 });
promptSchema.index({ isPublic: 1, createdAt: -1 });

export function promptModel(conn: Connection): Model<PromptRecord> {
  return (
    (conn.models.Prompt as Model<PromptRecord> | undefined) ??
    conn.model<PromptRecord>('Prompt', promptSchema, 'prompts')
  );
}
