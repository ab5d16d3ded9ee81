import { Schema, type Connection, type Model } from 'mongoose';
import { outboxPlugin } from '@aict/service-kit';

/** A user as stored. Never leaves the service as is: see presenters/user.presenter.ts. */
export interface UserRecord {
  _id: string;
  username: string;
  /** Lower-cased. */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (domain/passwords.ts). */
  passwordHash: string;
  isSuperAdmin: boolean;
  /** Bumped by a password reset, a deletion and a change of the super-admin flag (ADR 0001). */
  tokenVersion: number;
  /** The UI language the user picked (PATCH /api/user); absent until they pick one. */
  language?: 'en' | 'nl';
  /** Set on users created by a single sign-on: the provider and its subject. */
  sso?: { issuer: string; subject: string };
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<UserRecord>(
  {
    _id: { type: String, required: true },
    username: { type: String, required: true },
    email: { type: String, required: true },
    passwordHash: { type: String, required: true },
    isSuperAdmin: { type: Boolean, required: true, default: false },
    tokenVersion: { type: Number, required: true, default: 0 },
    language: { type: String, enum: ['en', 'nl'], required: false },
    sso: { type: { issuer: String, subject: String, _id: false }, required: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'users', versionKey: false },
);
userSchema.plugin(outboxPlugin);
// MongoDB only (FerretDB v1 scans): the seed's super-admin look-up and the sorted list.
userSchema.index({ isSuperAdmin: 1 });
userSchema.index({ createdAt: 1 });

export type UserModel = Model<UserRecord>;

export function userModel(connection: Connection): UserModel {
  return connection.model<UserRecord>('User', userSchema);
}
