// What the usage meter keeps in the process, so that a warm generation reads no document and
// writes nothing before its provider call unless a limit asks for it (issue 15):
//
//   limits and prices  kept `USAGE_CACHE_MS` (default 5 s), dropped at once on this replica's
//                      own writes; another replica's edit reaches this one within that time.
//   month counters     concurrent changes of one counter are written as one new version
//                      (group commit): a burst of n calls costs one read and one insert, not n.
//   settles            a call with no budget and no cap to check settles after its answer went
//                      out; the usage screens of this replica wait for the workspace's settles
//                      first, so an admin sees the call they just made.

import type { StoredPrice } from '../data/usage.repository';
import { createTtlCache, type TtlCache } from '../lib/ttl-cache';

interface SpentChange {
  delta: number;
  limit: number | null;
  resolve(accepted: boolean): void;
  reject(err: unknown): void;
}

/** The counter store the batcher writes to (a chain: an insert per version). */
export interface SpentStore {
  latest(chain: string): Promise<{ n: number; value: { spent: number } } | null>;
  append(chain: string, n: number, value: { spent: number }): Promise<boolean>;
}

/**
 * Group commit of month counters. A change with a limit is refused (false) when the counter,
 * with the changes accepted before it in its batch, has reached the limit; the batch is then
 * written as one version. Exact across replicas: a lost insert race reads again and decides
 * the whole batch again.
 */
export function createSpentBatcher(store: SpentStore) {
  const queues = new Map<string, SpentChange[]>();

  async function flush(chain: string, queue: SpentChange[]) {
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        for (;;) {
          const latest = await store.latest(chain);
          let spent = latest?.value.spent ?? 0;
          const accepted = batch.map(({ delta, limit }) => {
            if (limit !== null && delta > 0 && spent >= limit) return false;
            spent += delta;
            return true;
          });
          const written =
            !accepted.includes(true) ||
            (await store.append(chain, (latest?.n ?? 0) + 1, { spent }));
          if (written) {
            batch.forEach((change, i) => change.resolve(accepted[i]!));
            break;
          }
        }
      } catch (err) {
        batch.forEach((change) => change.reject(err));
      }
    }
    queues.delete(chain);
  }

  return {
    add(chain: string, delta: number, limit: number | null): Promise<boolean> {
      return new Promise<boolean>((resolve, reject) => {
        const queued = queues.get(chain);
        if (queued) return void queued.push({ delta, limit, resolve, reject });
        const queue: SpentChange[] = [{ delta, limit, resolve, reject }];
        queues.set(chain, queue);
        void flush(chain, queue);
      });
    },
  };
}

/** Settles still running, per workspace: usage readers wait for them; shutdown too. */
export function createSettleTracker() {
  const running = new Map<number, Set<Promise<void>>>();
  return {
    track(workspaceId: number, settle: Promise<void>) {
      const set = running.get(workspaceId) ?? new Set<Promise<void>>();
      running.set(workspaceId, set);
      set.add(settle);
      const done = () => {
        set.delete(settle);
        if (set.size === 0 && running.get(workspaceId) === set) running.delete(workspaceId);
      };
      settle.then(done, done);
    },
    /** Resolves once the workspace's settles started so far ended (however they ended). */
    async drain(workspaceId?: number): Promise<void> {
      const sets = workspaceId === undefined ? [...running.values()] : [running.get(workspaceId)];
      await Promise.allSettled(sets.flatMap((set) => [...(set ?? [])]));
    },
  };
}

/** A model's price as the meter uses it: version 0 is the built-in one. */
export interface PriceVersion {
  version: number;
  price: StoredPrice;
}

export interface UsageRuntime {
  /** Current prices by model (limits are kept by the repository). */
  prices: TtlCache<PriceVersion>;
  spent: ReturnType<typeof createSpentBatcher>;
  settles: ReturnType<typeof createSettleTracker>;
}

export function createUsageRuntime(
  cacheMs: number,
  counters: SpentStore,
  staleMs = 0,
): UsageRuntime {
  return {
    prices: createTtlCache<PriceVersion>(cacheMs, { staleMs }),
    spent: createSpentBatcher(counters),
    settles: createSettleTracker(),
  };
}
