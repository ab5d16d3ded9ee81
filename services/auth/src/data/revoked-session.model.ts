import { Schema, type Connection, type Model } from 'mongoose';
import { outboxPlugin } from '@aict/service-kit';

/** A session ended by logout: its token is refused until it expires. `_id` is the `sid`. */
export interface RevokedSessionRecord {
  _id: string;
  userId: string;
  expiresAt: Date;
}

const revokedSessionSchema = new Schema<RevokedSessionRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'revoked_sessions', versionKey: false },
);
revokedSessionSchema.plugin(outboxPlugin);
revokedSessionSchema.index({ expiresAt: 1 });

export type RevokedSessionModel = Model<RevokedSessionRecord>;

export function revokedSessionModel(connection: Connection): RevokedSessionModel {
  return connection.model<RevokedSessionRecord>('RevokedSession', revokedSessionSchema);
}
