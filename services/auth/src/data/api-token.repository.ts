import { outboxInsert, outboxUpdate, type Envelope } from '@aict/service-kit';
import type { ApiTokenModel, ApiTokenRecord } from './api-token.model';

export function apiTokenRepository(ApiToken: ApiTokenModel) {
  const lean = { lean: true } as const;
  return {
    model: ApiToken,

    /** With its events (outbox), published by the relay. */
    async insert(token: ApiTokenRecord, events: readonly Envelope[] = []): Promise<void> {
      await ApiToken.create(outboxInsert(token, events));
    },

    /** The gateway's lookup: one read by `_id` (the secret's hash). */
    async findByHash(hash: string): Promise<ApiTokenRecord | null> {
      return ApiToken.findById(hash, null, lean);
    },

    /** A user's tokens not revoked, newest first (a handful: not a hot path). */
    async listActive(userId: string): Promise<ApiTokenRecord[]> {
      return ApiToken.find({ userId, revokedAt: null }, null, {
        ...lean,
        sort: { createdAt: -1 },
      });
    },

    /** The user's token by its public id, revoked or not. */
    async findOwn(userId: string, tokenId: string): Promise<ApiTokenRecord | null> {
      return ApiToken.findOne({ tokenId, userId }, null, lean);
    },

    /** Marks it revoked with its event; false when it was revoked before. */
    async revoke(hash: string, at: Date, events: readonly Envelope[]): Promise<boolean> {
      const written = await ApiToken.updateOne(
        { _id: hash, revokedAt: null },
        outboxUpdate({ $set: { revokedAt: at } }, events),
      );
      return written.modifiedCount === 1;
    },

    async touch(hash: string, at: Date): Promise<void> {
      await ApiToken.updateOne({ _id: hash }, { $set: { lastUsedAt: at } });
    },
  };
}

export type ApiTokenRepository = ReturnType<typeof apiTokenRepository>;
