import { Schema, type Connection, type Model } from 'mongoose';

/** A provider's user as known here: `_id` is `<issuer> <subject>`; read by `_id` only. */
export interface SsoIdentityRecord {
  _id: string;
  userId: string;
  createdAt: Date;
}

const ssoIdentitySchema = new Schema<SsoIdentityRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'sso_identities', versionKey: false },
);

export type SsoIdentityModel = Model<SsoIdentityRecord>;

export function ssoIdentityModel(connection: Connection): SsoIdentityModel {
  return connection.model<SsoIdentityRecord>('SsoIdentity', ssoIdentitySchema);
}
