import type { ClaimKind, ClaimModel, ClaimRecord } from './claim.model';
import { isDuplicateKey } from './mongo-errors';

/**
 * A claim older than this whose user does not hold the value (a registration or rename
 * that failed half-way, or a crash before the old value was released) may be taken over.
 * Younger claims may belong to a registration still in progress.
 */
export const STALE_CLAIM_MS = 60_000;

/** Says whether `userId` exists and holds `value` (lower-cased) as its `kind`. */
export type ClaimHolderCheck = (kind: ClaimKind, value: string, userId: string) => Promise<boolean>;

export const claimKey = (value: string) => value.trim().toLowerCase();

/** Usernames and e-mails, unique case-insensitively under concurrency (see claim.model.ts). */
export function claimRepository(models: Record<ClaimKind, ClaimModel>, holds: ClaimHolderCheck) {
  return {
    /**
     * Claims `value` for `userId`; false when someone else holds it. Idempotent for the
     * same user; takes over a stale claim (see STALE_CLAIM_MS).
     */
    async claim(kind: ClaimKind, value: string, userId: string): Promise<boolean> {
      const Claim = models[kind];
      const _id = claimKey(value);
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          await Claim.create({ _id, userId, claimedAt: new Date() });
          return true;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const held = await Claim.findById(_id, null, { lean: true });
        if (!held) continue; // released in between
        if (held.userId === userId) return true;
        if (!(await isStale(kind, held))) return false;
        const taken = await Claim.updateOne(
          { _id, userId: held.userId, claimedAt: held.claimedAt },
          { $set: { userId, claimedAt: new Date() } },
        );
        if (taken.matchedCount === 1) return true;
      }
      return false;
    },

    /**
     * Gives `value` back if the claim is `userId`'s and the user does not hold the value
     * (a concurrent change of the same user to the same value keeps it).
     */
    async release(kind: ClaimKind, value: string, userId: string): Promise<void> {
      const _id = claimKey(value);
      if (await holds(kind, _id, userId)) return;
      await models[kind].deleteOne({ _id, userId });
    },

    /** The user holding `value`, by `_id` (the login's look-up). */
    async holderOf(kind: ClaimKind, value: string): Promise<string | null> {
      const held = await models[kind].findById(claimKey(value), null, { lean: true });
      return held?.userId ?? null;
    },
  };

  async function isStale(kind: ClaimKind, claim: ClaimRecord): Promise<boolean> {
    if (Date.now() - claim.claimedAt.getTime() < STALE_CLAIM_MS) return false;
    return !(await holds(kind, claim._id, claim.userId));
  }
}

export type ClaimRepository = ReturnType<typeof claimRepository>;
