import { Schema, type Connection, type Model } from 'mongoose';
import type { Role } from '@aict/contracts';
import { outboxPlugin } from '@aict/service-kit';

/**
 * The source of truth of one user's role in one workspace: `_id` = `<workspaceId>:<userId>`.
 * Leaving keeps the document with `role: null`, so that `rev` (the number of changes) keeps
 * growing if the user comes back: the per-user index applies changes in `rev` order.
 */
export interface MembershipRecord {
  _id: string;
  workspaceId: number;
  userId: string;
  role: Role | null;
  rev: number;
  createdAt: Date;
  updatedAt: Date;
}

/** One entry of the per-user index: role null once the user has left. */
export interface UserIndexEntry {
  role: Role | null;
  rev: number;
}

/**
 * Derived from the memberships, so that a user's workspaces are one read by `_id` (the user
 * id): `ws` maps a workspace id to the entry. Repaired from the source (see sync-user-index).
 */
export interface UserIndexRecord {
  _id: string;
  ws: Record<string, UserIndexEntry>;
}

/** Users the auth service deleted (from `user.deleted`): they are not added back. */
export interface DeletedUserRecord {
  _id: string;
  deletedAt: Date;
}

const membershipSchema = new Schema<MembershipRecord>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: Number, required: true },
    userId: { type: String, required: true },
    role: { type: String, enum: ['admin', 'user', null], default: null },
    rev: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
membershipSchema.plugin(outboxPlugin);
// MongoDB: the scans FerretDB does anyway (workspace deletion, user deletion, snapshot).
membershipSchema.index({ workspaceId: 1 });
membershipSchema.index({ userId: 1 });

const userIndexSchema = new Schema<UserIndexRecord>(
  { _id: { type: String, required: true }, ws: { type: Schema.Types.Mixed, default: {} } },
  { versionKey: false, minimize: false },
);

const deletedUserSchema = new Schema<DeletedUserRecord>(
  { _id: { type: String, required: true }, deletedAt: { type: Date, required: true } },
  { versionKey: false },
);

export interface MembershipModels {
  Membership: Model<MembershipRecord>;
  UserIndex: Model<UserIndexRecord>;
  DeletedUser: Model<DeletedUserRecord>;
}

export function membershipModels(conn: Connection): MembershipModels {
  return {
    Membership: conn.model<MembershipRecord>('Membership', membershipSchema, 'memberships'),
    UserIndex: conn.model<UserIndexRecord>('UserWorkspaces', userIndexSchema, 'user_workspaces'),
    DeletedUser: conn.model<DeletedUserRecord>('DeletedUser', deletedUserSchema, 'deleted_users'),
  };
}
