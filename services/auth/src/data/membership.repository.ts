import type { Role } from '@aict/contracts';
import type { MembershipModels, MembershipRecord, UserRolesRecord } from './membership.model';
import { isDuplicateKey } from './mongo-errors';

/** One change to apply to the read model, stamped with when it happened. */
export interface MembershipChange {
  workspaceId: number;
  userId: string;
  role: Role | null;
  at: Date;
}

/** A user's roles by workspace id (as a string), without the tombstones. */
export type WorkspaceRoles = Record<string, Role>;

const membershipId = (workspaceId: number, userId: string) => `${workspaceId}:${userId}`;

/**
 * The read model of memberships. Both documents a change touches (the membership and the
 * user's roles) are written with compare-and-set on what was read, and a change older than
 * the one stored is ignored: applying the same events in any order, any number of times,
 * ends in the same state.
 */
export function membershipRepository({
  Membership,
  UserRoles,
  DeletedWorkspace,
}: MembershipModels) {
  const lean = { lean: true } as const;

  async function setMembership(change: MembershipChange): Promise<void> {
    const _id = membershipId(change.workspaceId, change.userId);
    for (;;) {
      const current = await Membership.findById(_id, null, lean);
      if (current && current.changedAt.getTime() > change.at.getTime()) return;
      const fields = {
        workspaceId: change.workspaceId,
        userId: change.userId,
        role: change.role,
        changedAt: change.at,
      };
      if (!current) {
        try {
          await Membership.create({ _id, ...fields });
          return;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          continue;
        }
      }
      const written = await Membership.updateOne(
        { _id, changedAt: current.changedAt },
        { $set: fields },
      );
      if (written.matchedCount === 1) return;
    }
  }

  async function setUserRole(change: MembershipChange): Promise<void> {
    const key = String(change.workspaceId);
    for (;;) {
      const current = await UserRoles.findById(change.userId, null, lean);
      const entry = current?.workspaces[key];
      if (entry && new Date(entry.changedAt).getTime() > change.at.getTime()) return;
      const workspaces = {
        ...current?.workspaces,
        [key]: { role: change.role, changedAt: change.at },
      };
      if (!current) {
        try {
          await UserRoles.create({ _id: change.userId, workspaces, rev: 1 });
          return;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          continue;
        }
      }
      const written = await UserRoles.updateOne(
        { _id: change.userId, rev: current.rev },
        { $set: { workspaces, rev: current.rev + 1 } },
      );
      if (written.matchedCount === 1) return;
    }
  }

  return {
    async isWorkspaceDeleted(workspaceId: number): Promise<boolean> {
      return (await DeletedWorkspace.findById(workspaceId, null, lean)) !== null;
    },

    async markWorkspaceDeleted(workspaceId: number, at: Date): Promise<void> {
      try {
        await DeletedWorkspace.create({ _id: workspaceId, deletedAt: at });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },

    /** Applies one change to the membership, then to the user's roles. */
    async apply(change: MembershipChange): Promise<void> {
      await setMembership(change);
      await setUserRole(change);
    },

    /** Every membership recorded, tombstones included (the start-up reconciliation). */
    async allMemberships(): Promise<MembershipRecord[]> {
      return Membership.find({}, null, lean);
    },

    /** Every membership ever recorded in a workspace, tombstones included. */
    async membershipsOf(workspaceId: number): Promise<MembershipRecord[]> {
      return Membership.find({ workspaceId }, null, lean);
    },

    /** The members of a workspace and their roles. */
    async membersOf(workspaceId: number): Promise<Array<{ userId: string; role: Role }>> {
      const records = await Membership.find({ workspaceId }, null, lean);
      return records.flatMap((m) => (m.role ? [{ userId: m.userId, role: m.role }] : []));
    },

    /** One user's roles: one read by `_id`. */
    async rolesOf(userId: string): Promise<WorkspaceRoles> {
      return rolesFrom(await UserRoles.findById(userId, null, lean));
    },

    /** Every user's roles (user administration of a super admin). */
    async allRoles(): Promise<Map<string, WorkspaceRoles>> {
      const records = await UserRoles.find({}, null, lean);
      return new Map(records.map((record) => [record._id, rolesFrom(record)]));
    },
  };
}

export type MembershipRepository = ReturnType<typeof membershipRepository>;

function rolesFrom(record: UserRolesRecord | null): WorkspaceRoles {
  const roles: WorkspaceRoles = {};
  for (const [workspaceId, entry] of Object.entries(record?.workspaces ?? {})) {
    if (entry.role) roles[workspaceId] = entry.role;
  }
  return roles;
}
