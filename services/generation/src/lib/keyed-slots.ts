/** What `acquire` gives back: call it once the work is over (calling it again does nothing). */
export type ReleaseSlot = () => void;

export interface KeyedSlotsOptions {
  /** Holders of one key at once. */
  maxRunning: number;
  /**
   * Places shared equally among the keys in use (holding or waiting): with n keys in use, a
   * key holds at most max(1, floor(sharedPlaces / n)) (and never more than `maxRunning`), so
   * one busy key leaves room for the others. Without it, each key has `maxRunning`.
   */
  sharedPlaces?: number;
  /** Callers of one key waiting for a place; past that `acquire` refuses at once. */
  maxQueued: number;
  /**
   * The error a refused (or abandoned) caller gets, with the seconds it should wait before it
   * tries again (see `retryAfter`).
   */
  refuse: (retryAfterSeconds: number) => Error;
  /**
   * The Retry-After of a refused caller: at least `minSeconds`, at most `maxSeconds`, and in
   * between when a place can be expected for it. The callers refused one after the other are
   * counted as queued behind the queue (they come back), each place frees once per holding time
   * (a running average), so a flood is told to come back spread out at the pace the key's
   * places free up rather than all at once. Without it: `minSeconds` of 1, no spreading.
   */
  retryAfter?: { minSeconds: number; maxSeconds: number };
  /**
   * A key that is flooding (callers refused and not yet due back) holds at most this share of
   * its places (at least one) while other keys are in use, so the others' work is not slowed
   * by the flood's. 1 (default): no such limit.
   */
  floodShare?: number;
  /** Milliseconds since some fixed point (tests). */
  now?: () => number;
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
  /** Callers refused since `refusedUntil` last passed: they will come back before the queue. */
  refused: number;
  /** When the latest refused caller was told to come back. */
  refusedUntil: number;
}

/** How long a place is held, on average (an exponential moving average), per key in use. */
const HOLD_SMOOTHING = 0.2;

/**
 * A counting semaphore per key with a bounded first-in-first-out queue, held in this process.
 * Keys without holders or waiters are forgotten, so the map stays as small as the keys in use.
 * With `sharedPlaces`, a key's limit shrinks while other keys are in use: a released place
 * then goes to the key's next waiter only while the key is under its share, and when a key
 * leaves, the others' waiters take the room it left.
 */
export function createKeyedSlots({
  maxRunning,
  maxQueued,
  sharedPlaces,
  refuse,
  retryAfter = { minSeconds: 1, maxSeconds: 1 },
  floodShare = 1,
  now = Date.now,
}: KeyedSlotsOptions): KeyedSlots {
  const lines = new Map<string, Line>();
  /** The holding time of a place (ms), per key; kept while the key is forgotten between uses. */
  const holding = new Map<string, number>();

  /** Seconds a caller refused now should wait: its turn behind the queue and those refused. */
  function refusal(key: string, line: Line): Error {
    const at = now();
    if (at >= line.refusedUntil) line.refused = 0;
    line.refused += 1;
    const held = holding.get(key) ?? 0;
    const waitMs = ((line.queue.length + line.refused) * held) / Math.max(1, limit(line));
    const seconds = Math.min(
      retryAfter.maxSeconds,
      Math.max(retryAfter.minSeconds, Math.ceil(waitMs / 1000)),
    );
    line.refusedUntil = Math.max(line.refusedUntil, at + seconds * 1000);
    return refuse(seconds);
  }

  /** How many places one key may hold now. */
  const limit = (line: Line) => {
    const share =
      sharedPlaces === undefined
        ? maxRunning
        : Math.min(maxRunning, Math.max(1, Math.floor(sharedPlaces / Math.max(1, lines.size))));
    const flooding = line.refused > 0 && now() < line.refusedUntil && lines.size > 1;
    return flooding ? Math.max(1, Math.floor(share * floodShare)) : share;
  };

  /** Grants places to a key's waiters while it is under its limit. */
  function admit(key: string, line: Line): void {
    while (line.queue.length > 0 && line.running < limit(line)) {
      line.running += 1;
      line.queue.shift()!.grant(releaser(key, line));
    }
  }

  /** Forgets a key without holders or waiters; the others' shares grow. */
  function forgetIfIdle(key: string, line: Line): void {
    if (line.running > 0 || line.queue.length > 0 || lines.get(key) !== line) return;
    lines.delete(key);
    if (sharedPlaces !== undefined || floodShare < 1)
      for (const [other, l] of lines) admit(other, l);
  }

  function releaser(key: string, line: Line): ReleaseSlot {
    let released = false;
    const since = now();
    return () => {
      if (released) return;
      released = true;
      const held = now() - since;
      const average = holding.get(key);
      holding.set(key, average === undefined ? held : average + HOLD_SMOOTHING * (held - average));
      line.running -= 1;
      // The place goes to the next waiter of this key (nobody overtakes its queue) while
      // the key is within its share.
      admit(key, line);
      forgetIfIdle(key, line);
    };
  }

  return {
    acquire(key, signal) {
      if (signal?.aborted) return Promise.reject(refuse(retryAfter.minSeconds));
      let line = lines.get(key);
      if (!line) {
        line = { running: 0, queue: [], refused: 0, refusedUntil: 0 };
        lines.set(key, line);
      }
      if (line.queue.length === 0 && line.running < limit(line)) {
        line.running += 1;
        return Promise.resolve(releaser(key, line));
      }
      if (line.queue.length >= maxQueued) return Promise.reject(refusal(key, line));
      const current = line;
      return new Promise<ReleaseSlot>((resolve, reject) => {
        const onAbort = () => {
          const index = current.queue.indexOf(waiter);
          if (index >= 0) current.queue.splice(index, 1);
          forgetIfIdle(key, current);
          reject(refuse(retryAfter.minSeconds));
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
