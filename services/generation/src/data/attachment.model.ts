import { Schema, type Connection, type Model } from 'mongoose';

/** An uploaded chat attachment (SPEC §3: id, originalName, mimeType, size, url), with its owner. */
export interface AttachmentRecord {
  _id: string;
  userId: string;
  workspaceId: number | null;
  originalName: string;
  mimeType: string;
  size: number;
  /** Object key in our bucket (chosen by the server). */
  key: string;
  createdAt: Date;
}

const schema = new Schema<AttachmentRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    workspaceId: { type: Number, default: null },
    originalName: { type: String, required: true },
    mimeType: { type: String, required: true },
    size: { type: Number, required: true },
    key: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'attachments', versionKey: false },
);
schema.index({ workspaceId: 1 });

export const attachmentModel = (db: Connection): Model<AttachmentRecord> =>
  (db.models.Attachment as Model<AttachmentRecord>) ??
  db.model<AttachmentRecord>('Attachment', schema);
