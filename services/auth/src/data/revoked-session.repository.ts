import { outboxInsert, type Envelope } from '@aict/service-kit';
import type { RevokedSessionModel, RevokedSessionRecord } from './revoked-session.model';
import { isDuplicateKey } from './mongo-errors';

export function revokedSessionRepository(RevokedSession: RevokedSessionModel) {
  return {
    model: RevokedSession,

    /** Records the revocation with its event; false when this session was revoked before. */
    async revoke(session: RevokedSessionRecord, events: readonly Envelope[]): Promise<boolean> {
      try {
        await RevokedSession.create(outboxInsert(session, events));
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    /** Sessions revoked whose tokens have not expired yet (the gateway's snapshot). */
    async findUnexpired(now = new Date()): Promise<RevokedSessionRecord[]> {
      return RevokedSession.find({ expiresAt: { $gt: now } }, null, { lean: true });
    },

    /** Forgets revocations of tokens that have expired anyway; how many went. */
    async purgeExpired(before: Date): Promise<number> {
      const result = await RevokedSession.deleteMany({ expiresAt: { $lte: before } });
      return result.deletedCount;
    },
  };
}

export type RevokedSessionRepository = ReturnType<typeof revokedSessionRepository>;
