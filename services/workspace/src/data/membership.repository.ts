import type { Role } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { live, notDeleted, outboxDelete, outboxUpdate } from '@aict/service-kit';
import type { KeyedLock } from '@aict/service-kit';
import type {
  MembershipModels,
  MembershipRecord,
  UserIndexEntry,
  UserIndexRecord,
} from './membership.model';
import { withoutOutbox } from './workspace.repository';

export function membershipId(workspaceId: number, userId: string): string {
  return `${workspaceId}:${userId}`;
}

const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/**
 * `locks` serialises the writes of each user's index document (see KeyedLock): two of a
 * user's memberships changing at once would otherwise lose an entry on FerretDB v1.
 */
export function createMembershipRepository(
  { Membership, UserIndex, DeletedUser }: MembershipModels,
  locks: KeyedLock,
) {
  const index = UserIndex.collection;
  const withIndexLock = <T>(userId: string, work: () => Promise<T>) =>
    locks.run(`${index.collectionName}:${userId}`, work);

  return {
    async get(workspaceId: number, userId: string): Promise<MembershipRecord | null> {
      return live(
        await Membership.findById(membershipId(workspaceId, userId)).lean<MembershipRecord>(),
      );
    },

    /** Sets the role (null: left) with its events; the membership after the write. */
    async write(
      workspaceId: number,
      userId: string,
      role: Role | null,
      events: Envelope[],
    ): Promise<MembershipRecord> {
      const now = new Date();
      // The driver's own call: FerretDB v1 refuses a projection on findAndModify.
      const doc = await Membership.collection.findOneAndUpdate(
        { _id: membershipId(workspaceId, userId) } as never,
        outboxUpdate(
          {
            $set: { workspaceId, userId, role, updatedAt: now },
            $inc: { rev: 1 },
            $setOnInsert: { createdAt: now },
            // A tombstone of a deleted user's membership comes back to life.
            $unset: { _deletedAt: '' },
          },
          events,
        ) as never,
        { upsert: true, returnDocument: 'after' },
      );
      return withoutOutbox<MembershipRecord>(doc!);
    },

    /** Deletes for good once its events are published (the outbox relay). */
    async markDeleted(id: string, events: Envelope[]): Promise<void> {
      await Membership.updateOne(notDeleted({ _id: id }), outboxDelete(events));
    },

    /** Every membership document of a workspace (a scan: workspace deletion only). */
    async listByWorkspace(workspaceId: number): Promise<MembershipRecord[]> {
      return Membership.find(notDeleted({ workspaceId })).lean<MembershipRecord[]>();
    },

    /** Every membership document of a user (a scan: user deletion only). */
    async listByUser(userId: string): Promise<MembershipRecord[]> {
      return Membership.find(notDeleted({ userId })).lean<MembershipRecord[]>();
    },

    /** Every current membership (a scan: the gateway's start-up snapshot). */
    async listActive(): Promise<MembershipRecord[]> {
      return Membership.find(notDeleted({ role: { $in: ['admin', 'user'] as Role[] } }))
        .sort({ _id: 1 })
        .lean<MembershipRecord[]>();
    },

    async deleteByWorkspace(workspaceId: number): Promise<void> {
      await Membership.deleteMany({ workspaceId });
    },

    // The per-user index -----------------------------------------------------------------

    async readIndex(userId: string): Promise<UserIndexRecord | null> {
      return (await index.findOne({ _id: userId } as never)) as UserIndexRecord | null;
    },

    /** Applies an entry unless the index already holds a newer one (a higher `rev`). */
    async applyToIndex(userId: string, workspaceId: number, entry: UserIndexEntry): Promise<void> {
      const path = `ws.${workspaceId}`;
      await withIndexLock(userId, async () => {
        // Read by `_id` first: the same entry arrives more than once (the writer applies it,
        // then its event does), and on FerretDB a conditional update that matches nothing
        // scans the collection. The update keeps its condition for a writer elsewhere.
        const current = (await index.findOne({ _id: userId } as never, {
          projection: { [path]: 1 },
        })) as UserIndexRecord | null;
        const held = current?.ws?.[String(workspaceId)];
        if (held && held.rev >= entry.rev) return;
        if (!current) {
          await index
            .updateOne({ _id: userId } as never, { $setOnInsert: { ws: {} } }, { upsert: true })
            .catch((err: unknown) => {
              if (!isDuplicateKey(err)) throw err; // created meanwhile: it exists, as wanted
            });
        }
        await index.updateOne(
          {
            _id: userId,
            $or: [{ [`${path}.rev`]: { $lt: entry.rev } }, { [path]: { $exists: false } }],
          } as never,
          { $set: { [path]: { role: entry.role, rev: entry.rev } } },
        );
      });
    },

    /** Removes a workspace from a user's index (the workspace or the user is gone for good). */
    async removeFromIndex(userId: string, workspaceId: number): Promise<void> {
      await withIndexLock(userId, async () => {
        await index.updateOne({ _id: userId } as never, { $unset: { [`ws.${workspaceId}`]: '' } });
      });
    },

    async deleteIndex(userId: string): Promise<void> {
      await withIndexLock(userId, async () => {
        await index.deleteOne({ _id: userId } as never);
      });
    },

    // Deleted users ----------------------------------------------------------------------

    async markUserDeleted(userId: string): Promise<void> {
      await DeletedUser.updateOne(
        { _id: userId },
        { $setOnInsert: { deletedAt: new Date() } },
        { upsert: true },
      ).catch((err: unknown) => {
        if (!isDuplicateKey(err)) throw err;
      });
    },

    async isUserDeleted(userId: string): Promise<boolean> {
      return (await DeletedUser.exists({ _id: userId })) !== null;
    },
  };
}

export type MembershipRepository = ReturnType<typeof createMembershipRepository>;
