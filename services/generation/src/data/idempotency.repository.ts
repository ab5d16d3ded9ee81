import type { Model } from 'mongoose';
import type { IdempotencyRecord } from './idempotency.model';

const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/** Idempotency-Key claims, each one document addressed by `_id`; reads return plain objects. */
export function createIdempotencyRepository(Idempotency: Model<IdempotencyRecord>) {
  return {
    /** Inserts the claim; false when the key is claimed already (a duplicate `_id`). */
    async claim(record: IdempotencyRecord): Promise<boolean> {
      try {
        await Idempotency.create(record);
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    findById: (id: string) => Idempotency.findById(id).lean<IdempotencyRecord>(),

    /** Frees a claim whose holder died, unless another holder took it over meanwhile. */
    removeExpired: (id: string, leaseUntil: Date) => Idempotency.deleteOne({ _id: id, leaseUntil }),

    renewLease: (id: string, leaseUntil: Date) =>
      Idempotency.updateOne({ _id: id, status: 'running' }, { $set: { leaseUntil } }),

    complete: (id: string, response: unknown) =>
      Idempotency.updateOne({ _id: id }, { $set: { status: 'done', response } }),

    release: (id: string) => Idempotency.deleteOne({ _id: id, status: 'running' }),
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
