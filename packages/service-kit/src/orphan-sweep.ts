import { z } from 'zod';
import { envInt } from './config';
import type { Logger } from './logger';
import type { ObjectStore } from './storage';

/**
 * The sweep's settings, for a service's config schema (`...orphanSweepEnv.shape`). An
 * object is written before the record that points at it; a crash or an outage between the
 * two leaves an object no record points to. The sweep removes such objects once they are
 * older than the grace period (so an upload in progress is never touched).
 */
export const orphanSweepEnv = z.object({
  /** How often a pass runs (0 turns the sweep off). Default: every hour. */
  ORPHAN_SWEEP_INTERVAL_MS: envInt({ min: 0, max: 7 * 86_400_000 }).default(3_600_000),
  /** Objects younger than this are left alone. Default: one day. */
  ORPHAN_SWEEP_GRACE_MS: envInt({ min: 0, max: 30 * 86_400_000 }).default(86_400_000),
  /** Objects looked at per pass; the next pass goes on after the last one. */
  ORPHAN_SWEEP_BATCH: envInt({ min: 1, max: 100_000 }).default(1_000),
});
export type OrphanSweepEnv = z.infer<typeof orphanSweepEnv>;

export interface OrphanSweepOptions {
  store: ObjectStore;
  logger: Logger;
  /**
   * True when a record points at `key`. Called only for objects past the grace period;
   * it should read by `_id` (the key names the record), never scan a collection.
   * Throwing leaves the object alone.
   */
  isReferenced: (key: string) => Promise<boolean>;
  /** Only keys under this prefix (default: the whole bucket). */
  prefix?: string;
  graceMs: number;
  /** Objects looked at in one pass at most. */
  batch: number;
  /** Go on after this key (the `next` of the previous pass). */
  startAfter?: string;
  now?: () => number;
}

export interface OrphanSweepResult {
  scanned: number;
  removed: string[];
  /** Where the next pass goes on; undefined once the whole bucket was seen. */
  next?: string;
}

/**
 * One bounded pass: lists up to `batch` objects (in key order, after `startAfter`) and
 * removes those older than `graceMs` that no record points to.
 */
export async function sweepOrphanObjects(options: OrphanSweepOptions): Promise<OrphanSweepResult> {
  const { store, logger, isReferenced, prefix = '', graceMs, batch } = options;
  const now = (options.now ?? Date.now)();
  const removed: string[] = [];
  let scanned = 0;
  let last: string | undefined;
  const stream = store.client.listObjectsV2(store.bucket, prefix, true, options.startAfter ?? '');
  try {
    for await (const item of stream as AsyncIterable<{ name?: string; lastModified?: Date }>) {
      if (!item.name) continue;
      scanned++;
      last = item.name;
      const age = now - (item.lastModified?.getTime() ?? now);
      if (age >= graceMs) {
        let referenced = true;
        try {
          referenced = await isReferenced(item.name);
        } catch (err) {
          logger.warn({ err, key: item.name }, 'orphan sweep could not check an object; kept');
        }
        if (!referenced) {
          await store.remove(item.name);
          removed.push(item.name);
        }
      }
      if (scanned >= batch) break;
    }
  } finally {
    (stream as { destroy?: () => void }).destroy?.();
  }
  if (removed.length > 0)
    logger.info(
      { bucket: store.bucket, removed: removed.length, scanned },
      'orphan objects removed',
    );
  return { scanned, removed, next: scanned >= batch ? last : undefined };
}

/**
 * Runs `sweepOrphanObjects` every `intervalMs` in the background (the timer does not keep
 * the process alive), one bounded pass at a time, going on where the last pass stopped.
 * Returns a stop function for shutdown.
 */
export function startOrphanSweep(
  options: Omit<OrphanSweepOptions, 'startAfter' | 'graceMs' | 'batch'> & {
    config: OrphanSweepEnv;
  },
): () => Promise<void> {
  const { config, ...rest } = options;
  if (config.ORPHAN_SWEEP_INTERVAL_MS === 0) return async () => undefined;
  let startAfter: string | undefined;
  let running: Promise<void> | null = null;
  const pass = async () => {
    try {
      const result = await sweepOrphanObjects({
        ...rest,
        graceMs: config.ORPHAN_SWEEP_GRACE_MS,
        batch: config.ORPHAN_SWEEP_BATCH,
        startAfter,
      });
      startAfter = result.next;
    } catch (err) {
      rest.logger.warn({ err }, 'orphan sweep failed; the next pass retries');
    }
  };
  const timer = setInterval(() => {
    if (!running) running = pass().finally(() => (running = null));
  }, config.ORPHAN_SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
