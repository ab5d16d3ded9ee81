import { Schema, type Connection, type Model } from 'mongoose';
import type { AuditSummary } from '@aict/contracts';

/** The one chain every entry belongs to (`audit:global@<seq>`). */
export const AUDIT_CHAIN = 'audit:global';
export const auditEntryId = (seq: number) => `${AUDIT_CHAIN}@${seq}`;

/**
 * One entry of the audit log, immutable once written. `_id` is its place in the chain, so
 * appending is an insert that fails when another writer took the place first (compare-and-set
 * that is exact on FerretDB too). `hash` covers every field and `prevHash`.
 */
export interface AuditEntryRecord {
  _id: string;
  seq: number;
  /** The event the entry was appended for (a redelivery appends nothing). */
  eventId: string;
  at: Date;
  actorId: string | null;
  actorName: string | null;
  workspaceId: number | null;
  action: string;
  targetType: string;
  targetId: string;
  before: AuditSummary | null;
  after: AuditSummary | null;
  clientAddress: string | null;
  requestId: string;
  prevHash: string;
  hash: string;
}

/**
 * The log's bookkeeping, by `_id`: `head` (a hint of the latest seq, `$max`), `anchor` (the
 * last entry retention removed: the kept entries chain from its hash) and `event:<id>` (the
 * seq an event was appended at).
 */
export interface AuditMetaRecord {
  _id: string;
  seq?: number;
  hash?: string;
  at?: Date;
}

const auditEntrySchema = new Schema<AuditEntryRecord>(
  {
    _id: { type: String, required: true },
    seq: { type: Number, required: true },
    eventId: { type: String, required: true },
    at: { type: Date, required: true },
    actorId: { type: String, default: null },
    actorName: { type: String, default: null },
    workspaceId: { type: Number, default: null },
    action: { type: String, required: true },
    targetType: { type: String, required: true },
    targetId: { type: String, required: true },
    before: { type: Schema.Types.Mixed, default: null },
    after: { type: Schema.Types.Mixed, default: null },
    clientAddress: { type: String, default: null },
    requestId: { type: String, required: true },
    prevHash: { type: String, required: true },
    hash: { type: String, required: true },
  },
  { collection: 'audit', versionKey: false, minimize: false },
);
// For MongoDB (FerretDB scans anyway): pages by seq, a workspace's entries, the rare lookup
// of an event whose append was interrupted.
auditEntrySchema.index({ seq: -1 });
auditEntrySchema.index({ workspaceId: 1, seq: -1 });
auditEntrySchema.index({ eventId: 1 });

const auditMetaSchema = new Schema<AuditMetaRecord>(
  {
    _id: { type: String, required: true },
    seq: { type: Number },
    hash: { type: String },
    at: { type: Date },
  },
  { collection: 'audit_meta', versionKey: false },
);

export interface AuditModels {
  entries: Model<AuditEntryRecord>;
  meta: Model<AuditMetaRecord>;
}

export function auditModels(connection: Connection): AuditModels {
  return {
    entries: connection.model<AuditEntryRecord>('AuditEntry', auditEntrySchema),
    meta: connection.model<AuditMetaRecord>('AuditMeta', auditMetaSchema),
  };
}
