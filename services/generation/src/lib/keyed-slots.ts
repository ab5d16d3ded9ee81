/** What `acquire` gives back: call it once the work is over (calling it again does nothing). */
export type ReleaseSlot = () => void;

export interface KeyedSlotsOptions {
  /** Holders of one key at once. */
  maxRunning: number;
  /** Callers of one key waiting for a place; past that `acquire` refuses at once. */
  maxQueued: number;
  /** The error a refused (or abandoned) caller gets. */
  refuse: () => Error;
}

export interface KeyedSlots {
  /**
   * A place for `key`: at once when one is free, else after the callers queued before this
   * one; refused (`refuse()`) when the queue is full or `signal` aborts while waiting.
   */
  acquire(key: string, signal?: AbortSignal): Promise<ReleaseSlot>;
  /** Holders and waiters of a key, for logs and tests. */
  usage(key: string): { running: number; queued: number };
}

interface Waiter {
  grant: (release: ReleaseSlot) => void;
}

interface Line {
  running: number;
  queue: Waiter[];
}

/**
 * A counting semaphore per key with a bounded first-in-first-out queue, held in this process.
 * Keys without holders or waiters are forgotten, so the map stays as small as the keys in use.
 */
export function createKeyedSlots({ maxRunning, maxQueued, refuse }: KeyedSlotsOptions): KeyedSlots {
  const lines = new Map<string, Line>();

  function releaser(key: string, line: Line): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = line.queue.shift();
      // The place goes straight to the next waiter: nobody can overtake the queue.
      if (next) return next.grant(releaser(key, line));
      line.running -= 1;
      if (line.running === 0) lines.delete(key);
    };
  }

  return {
    acquire(key, signal) {
      if (signal?.aborted) return Promise.reject(refuse());
      let line = lines.get(key);
      if (!line) {
        line = { running: 0, queue: [] };
        lines.set(key, line);
      }
      if (line.running < maxRunning) {
        line.running += 1;
        return Promise.resolve(releaser(key, line));
      }
      if (line.queue.length >= maxQueued) return Promise.reject(refuse());
      const current = line;
      return new Promise<ReleaseSlot>((resolve, reject) => {
        const onAbort = () => {
          const index = current.queue.indexOf(waiter);
          if (index >= 0) current.queue.splice(index, 1);
          reject(refuse());
        };
        const waiter: Waiter = {
          grant: (release) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
        };
        current.queue.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    usage(key) {
      const line = lines.get(key);
      return { running: line?.running ?? 0, queued: line?.queue.length ?? 0 };
    },
  };
}
