import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A unique value held by a user: the document's `_id` IS the lower-cased username or
 * e-mail, so two registrations racing for the same value cannot both insert it (no
 * transactions and no unique secondary index needed), and a login finds its user by `_id`.
 */
export interface ClaimRecord {
  _id: string;
  userId: string;
  claimedAt: Date;
}

export type ClaimKind = 'username' | 'email';
export type ClaimModel = Model<ClaimRecord>;

const claimSchema = new Schema<ClaimRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    claimedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export function claimModels(connection: Connection): Record<ClaimKind, ClaimModel> {
  return {
    username: connection.model<ClaimRecord>('UsernameClaim', claimSchema, 'username_claims'),
    email: connection.model<ClaimRecord>('EmailClaim', claimSchema, 'email_claims'),
  };
}
