import { AppError } from '@aict/service-kit';
import { ERRORS } from '@aict/contracts';
import type { AttemptSlotRepository } from '../data/attempt-slot.repository';

/** One counter: at most `max` attempts of `key` per window. */
export interface Bucket {
  key: string;
  max: number;
}

export interface Attempt {
  /** Gives the attempt back (a successful sign-in does not count against anyone). */
  refund(): Promise<void>;
}

/** Past this many keys, the in-process memory of full buckets is swept. */
const SWEEP_ABOVE = 10_000;

/**
 * Fixed-window attempt counters kept in the auth service's database, so every replica
 * counts the same attempts. A bucket's window holds `max` slots, each a document whose
 * `_id` names the bucket, the window and the slot number; an attempt is counted by
 * INSERTING a free slot (a unique `_id` is atomic on MongoDB and on FerretDB v1, whose
 * in-place updates are not), and given back by deleting it. So concurrent attempts, on one
 * replica or several, never undercount: each that gets in holds a slot of its own.
 *
 * Cost: usually one insert per bucket (each process remembers where the next free slot
 * probably is); a full bucket is remembered in process until its window ends, so a client
 * that keeps trying past the limit costs no database work on that replica. A blocked
 * attempt is not counted, so a client that waits `Retry-After` gets in.
 */
export function rateLimiter(
  slots: AttemptSlotRepository,
  windowSeconds: number,
  now: () => number = Date.now,
) {
  const windowMs = windowSeconds * 1000;
  /** Next slot to try, per `<key>|<window>`. */
  const hints = new Map<string, number>();
  /** `<key>|<window>` found full: blocked until the window ends. */
  const full = new Map<string, number>();

  function sweep(at: number) {
    if (hints.size > SWEEP_ABOVE) hints.clear();
    if (full.size <= SWEEP_ABOVE) return;
    for (const [key, until] of full) if (until <= at) full.delete(key);
  }

  /** Takes a free slot of the bucket's current window; null when all are taken. */
  async function take(bucket: Bucket, window: number, until: Date): Promise<string | null> {
    const windowKey = `${bucket.key}|${window}`;
    if (full.has(windowKey)) return null;
    const start = hints.get(windowKey) ?? 0;
    for (let i = 0; i < bucket.max; i++) {
      const slot = (start + i) % bucket.max;
      const id = `${windowKey}|${slot}`;
      if (await slots.take(id, until)) {
        hints.set(windowKey, (slot + 1) % bucket.max);
        return id;
      }
    }
    full.set(windowKey, until.getTime());
    return null;
  }

  return {
    /** Counts an attempt in every bucket, or throws 429 RATE_LIMITED with Retry-After. */
    async attempt(buckets: readonly Bucket[]): Promise<Attempt> {
      const at = now();
      sweep(at);
      const window = Math.floor(at / windowMs);
      const until = new Date((window + 1) * windowMs);
      // One bucket after the other, the most specific first: an attempt refused there takes
      // no slot of the broader one, so concurrent attempts never crowd out each other's slots.
      const taken: string[] = [];
      const refund = async () => {
        await Promise.all(taken.map((id) => slots.release(id)));
      };
      for (const bucket of buckets) {
        let id: string | null;
        try {
          id = await take(bucket, window, until);
        } catch (err) {
          // the database failed on this bucket: the slots already taken are given back
          await refund().catch(() => undefined);
          throw err;
        }
        if (!id) break;
        taken.push(id);
      }
      if (taken.length < buckets.length) {
        await refund(); // a refused attempt counts nowhere
        const seconds = Math.max(1, Math.ceil((until.getTime() - at) / 1000));
        throw new AppError('RATE_LIMITED', 429, ERRORS.RATE_LIMITED.message, {
          headers: { 'Retry-After': String(seconds) },
          details: { retryAfterSeconds: seconds },
        });
      }
      return {
        async refund() {
          await refund();
          for (const id of taken) full.delete(id.slice(0, id.lastIndexOf('|')));
        },
      };
    },

    /** Forgets the slots of ended windows (the database's, and this process's memory). */
    async purge(): Promise<number> {
      const at = now();
      for (const [key, until] of full) if (until <= at) full.delete(key);
      hints.clear();
      return slots.purgeExpired(new Date(at));
    },
  };
}

export type RateLimiter = ReturnType<typeof rateLimiter>;
