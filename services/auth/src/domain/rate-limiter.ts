import { AppError } from '@aict/service-kit';
import { ERRORS } from '@aict/contracts';

/** One counter: at most `max` attempts of `key` per window. */
export interface Bucket {
  key: string;
  max: number;
}

export interface Attempt {
  /** Gives the attempt back (a successful login does not count against the user). */
  refund(): void;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Past this many keys, expired windows are swept on the next attempt. */
const SWEEP_ABOVE = 10_000;

/**
 * Fixed-window attempt counters, IN MEMORY: each auth replica counts on its own, so the
 * limit holds per replica (run one auth replica, or accept N× the limit with N replicas).
 * A blocked attempt is not counted, so a client that waits `Retry-After` gets in.
 */
export function rateLimiter(windowSeconds: number, now: () => number = Date.now) {
  const windowMs = windowSeconds * 1000;
  const windows = new Map<string, Window>();

  function current(key: string, at: number): Window | undefined {
    const window = windows.get(key);
    if (window && window.resetAt <= at) {
      windows.delete(key);
      return undefined;
    }
    return window;
  }

  function sweep(at: number) {
    if (windows.size <= SWEEP_ABOVE) return;
    for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key);
  }

  return {
    /** Counts an attempt in every bucket, or throws 429 RATE_LIMITED with Retry-After. */
    attempt(buckets: readonly Bucket[]): Attempt {
      const at = now();
      sweep(at);
      let retryAfterMs = 0;
      for (const { key, max } of buckets) {
        const window = current(key, at);
        if (window && window.count >= max)
          retryAfterMs = Math.max(retryAfterMs, window.resetAt - at);
      }
      if (retryAfterMs > 0) {
        const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
        throw new AppError('RATE_LIMITED', 429, ERRORS.RATE_LIMITED.message, {
          headers: { 'Retry-After': String(seconds) },
          details: { retryAfterSeconds: seconds },
        });
      }
      const counted: Array<[string, Window]> = buckets.map(({ key }) => {
        const window = current(key, at) ?? { count: 0, resetAt: at + windowMs };
        window.count++;
        windows.set(key, window);
        return [key, window];
      });
      return {
        refund() {
          for (const [key, window] of counted) {
            if (windows.get(key) === window && window.count > 0) window.count--;
          }
        },
      };
    },
  };
}

export type RateLimiter = ReturnType<typeof rateLimiter>;
