interface Cached<T> {
  at: number;
  value: Promise<T>;
}

/**
 * A value per key for `ttlMs`, shared by the readers that ask at once (one load for a burst);
 * a failed load is not kept, nor one `keep` refuses. `drop` forgets a key (after the process's
 * own write), `clear` every key; a load that was running meanwhile is not kept either (its
 * answer may predate the change).
 */
export function createTtlCache<T>(
  ttlMs: number,
  options: { now?: () => number; keep?: (value: T) => boolean } = {},
) {
  const now = options.now ?? (() => Date.now());
  const entries = new Map<string, Cached<T>>();
  let epoch = 0;
  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.value;
      const value = load();
      if (ttlMs <= 0) return value;
      const entry = { at: now(), value };
      const started = epoch;
      entries.set(key, entry);
      const forget = () => {
        if (entries.get(key) === entry) entries.delete(key);
      };
      value.then((loaded) => {
        if (epoch !== started || (options.keep && !options.keep(loaded))) forget();
      }, forget);
      return value;
    },
    drop(key: string) {
      epoch++;
      entries.delete(key);
    },
    clear() {
      epoch++;
      entries.clear();
    },
  };
}

export type TtlCache<T> = ReturnType<typeof createTtlCache<T>>;
