import type { ObjectStore } from '../storage';
import { secondsSince, storeMetrics } from './metrics';

const TIMED = ['ensureBucket', 'put', 'get', 'stat', 'remove', 'removePrefix', 'list'] as const;

/**
 * The same store, with `minio_operation_duration_seconds` recorded for each call of the
 * kit's methods (by operation and result). Calls made on `store.client` directly are not.
 */
export function instrumentObjectStore<S extends ObjectStore>(store: S): S {
  const timed = { ...store };
  for (const operation of TIMED) {
    const original = store[operation] as (...args: unknown[]) => Promise<unknown>;
    (timed as Record<string, unknown>)[operation] = async (...args: unknown[]) => {
      const started = process.hrtime.bigint();
      try {
        const result = await original.apply(store, args);
        storeMetrics.storageCall(operation, true, secondsSince(started));
        return result;
      } catch (err) {
        storeMetrics.storageCall(operation, false, secondsSince(started));
        throw err;
      }
    };
  }
  return timed;
}
