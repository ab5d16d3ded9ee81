import { Schema, type Connection, type Model } from 'mongoose';
import type { Role } from '@aict/contracts';

// The auth service's read model of the workspace service's memberships, kept from
// `membership.changed` and `workspace.deleted`. Each entry remembers when the change it
// holds happened, so an older event arriving late (a retry) never overwrites a newer one;
// `role: null` is kept as a tombstone for the same reason.

/** One membership: `_id` is `<workspaceId>:<userId>`. */
export interface MembershipRecord {
  _id: string;
  workspaceId: number;
  userId: string;
  role: Role | null;
  changedAt: Date;
}

export interface RoleEntry {
  role: Role | null;
  changedAt: Date;
}

/** Every membership of one user, keyed by workspace id: `GET /api/user` is one `_id` read. */
export interface UserRolesRecord {
  _id: string;
  workspaces: Record<string, RoleEntry>;
  /** Optimistic concurrency: each write names the revision it read. */
  rev: number;
}

/** A deleted workspace: later membership events for it change nothing. */
export interface DeletedWorkspaceRecord {
  _id: number;
  deletedAt: Date;
}

const membershipSchema = new Schema<MembershipRecord>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: Number, required: true },
    userId: { type: String, required: true },
    role: { type: String, default: null },
    changedAt: { type: Date, required: true },
  },
  { collection: 'memberships', versionKey: false },
);
membershipSchema.index({ workspaceId: 1 });

const userRolesSchema = new Schema<UserRolesRecord>(
  {
    _id: { type: String, required: true },
    workspaces: { type: Schema.Types.Mixed, required: true },
    rev: { type: Number, required: true },
  },
  { collection: 'user_roles', versionKey: false, minimize: false },
);

const deletedWorkspaceSchema = new Schema<DeletedWorkspaceRecord>(
  { _id: { type: Number, required: true }, deletedAt: { type: Date, required: true } },
  { collection: 'deleted_workspaces', versionKey: false },
);

export interface MembershipModels {
  Membership: Model<MembershipRecord>;
  UserRoles: Model<UserRolesRecord>;
  DeletedWorkspace: Model<DeletedWorkspaceRecord>;
}

export function membershipModels(connection: Connection): MembershipModels {
  return {
    Membership: connection.model<MembershipRecord>('Membership', membershipSchema),
    UserRoles: connection.model<UserRolesRecord>('UserRoles', userRolesSchema),
    DeletedWorkspace: connection.model<DeletedWorkspaceRecord>(
      'DeletedWorkspace',
      deletedWorkspaceSchema,
    ),
  };
}
