import {
  live,
  notDeleted,
  outboxDelete,
  outboxInsert,
  outboxUpdate,
  type Envelope,
} from '@aict/service-kit';
import type { UserModel, UserRecord } from './user.model';

/** Changes to one user, written together with the events announcing them. */
export interface UserChanges {
  username?: string;
  email?: string;
  passwordHash?: string;
  isSuperAdmin?: boolean;
  tokenVersion?: number;
  language?: 'en' | 'nl';
}

/**
 * The users collection. Reads leave tombstones (users deleted but whose events are not
 * published yet) out. Every write that changes state carries its events (outbox), and
 * every update names the version it read (`expected`), so two concurrent changes of one
 * user cannot overwrite each other: the loser's write matches nothing and returns false.
 */
export function userRepository(User: UserModel) {
  const lean = { lean: true } as const;
  return {
    model: User,

    async insert(user: UserRecord, events: readonly Envelope[]): Promise<void> {
      await User.create(outboxInsert(user, events));
    },

    async findById(id: string): Promise<UserRecord | null> {
      return live(await User.findOne({ _id: id }, null, lean));
    },

    async findByIds(ids: readonly string[]): Promise<UserRecord[]> {
      if (ids.length === 0) return [];
      return User.find(notDeleted({ _id: { $in: [...ids] } }), null, lean).sort({
        createdAt: 1,
        _id: 1,
      });
    },

    /** Every user, oldest first (user administration of a super admin; the snapshot). */
    async findAll(): Promise<UserRecord[]> {
      return User.find(notDeleted({}), null, lean).sort({ createdAt: 1, _id: 1 });
    },

    async findAnySuperAdmin(): Promise<UserRecord | null> {
      return User.findOne(notDeleted({ isSuperAdmin: true }), null, lean);
    },

    /** Applies `changes` if the user is still as read (same token version, name, e-mail). */
    async update(
      expected: UserRecord,
      changes: UserChanges,
      events: readonly Envelope[],
    ): Promise<boolean> {
      const result = await User.updateOne(
        notDeleted(sameVersion(expected)),
        outboxUpdate({ $set: { ...changes, updatedAt: new Date() } }, events),
      );
      return result.matchedCount === 1;
    },

    /** Tombstones the user with its events; the outbox relay deletes it once they are out. */
    async markDeleted(expected: UserRecord, events: readonly Envelope[]): Promise<boolean> {
      const update = outboxDelete(events);
      const result = await User.updateOne(notDeleted(sameVersion(expected)), {
        ...update,
        $set: { ...update.$set, tokenVersion: expected.tokenVersion + 1, updatedAt: new Date() },
      });
      return result.matchedCount === 1;
    },
  };
}

export type UserRepository = ReturnType<typeof userRepository>;

function sameVersion(user: UserRecord) {
  return {
    _id: user._id,
    tokenVersion: user.tokenVersion,
    username: user.username,
    email: user.email,
    isSuperAdmin: user.isSuperAdmin,
  };
}
