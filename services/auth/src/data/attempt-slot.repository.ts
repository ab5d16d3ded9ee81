import type { AttemptSlotModel } from './attempt-slot.model';
import { isDuplicateKey } from './mongo-errors';

export function attemptSlotRepository(AttemptSlot: AttemptSlotModel) {
  return {
    /** Takes the slot; false when it is taken already. */
    async take(_id: string, expiresAt: Date): Promise<boolean> {
      try {
        await AttemptSlot.create({ _id, expiresAt });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },

    /** Gives a slot back (by `_id`: atomic). */
    async release(_id: string): Promise<void> {
      await AttemptSlot.deleteOne({ _id });
    },

    /** Slots of windows that have ended; how many went. */
    async purgeExpired(before: Date): Promise<number> {
      const result = await AttemptSlot.deleteMany({ expiresAt: { $lte: before } });
      return result.deletedCount;
    },
  };
}

export type AttemptSlotRepository = ReturnType<typeof attemptSlotRepository>;
