import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One Idempotency-Key of one user: `_id` is `<userId>:<sha256 of the key>`, claimed by insert
 * (a duplicate key means someone else holds it), so every operation is a lookup by `_id`.
 */
export interface IdempotencyRecord {
  _id: string;
  /** sha256 of the route and the request body: the same key with another body is a conflict. */
  fingerprint: string;
  status: 'running' | 'done';
  /** A claim whose holder died is taken over after this. */
  leaseUntil: Date;
  /** The JSON answer of the finished request. */
  response?: unknown;
  createdAt: Date;
}

const schema = new Schema<IdempotencyRecord>(
  {
    _id: { type: String, required: true },
    fingerprint: { type: String, required: true },
    status: { type: String, required: true },
    leaseUntil: { type: Date, required: true },
    response: { type: Schema.Types.Mixed, default: undefined },
    createdAt: { type: Date, required: true },
  },
  { collection: 'idempotency_keys', versionKey: false },
);

export const idempotencyModel = (db: Connection): Model<IdempotencyRecord> =>
  (db.models.IdempotencyKey as Model<IdempotencyRecord>) ??
  db.model<IdempotencyRecord>('IdempotencyKey', schema);
