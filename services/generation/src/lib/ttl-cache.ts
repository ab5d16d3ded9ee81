interface Cached<T> {
  at: number;
  value: Promise<T>;
  /** The value has loaded (and was kept): it may be served stale while it is read again. */
  loaded: boolean;
  /** A read in the background is under way. */
  refreshing: boolean;
}

export interface TtlCacheOptions<T> {
  now?: () => number;
  /** A loaded value this refuses is not kept. */
  keep?: (value: T) => boolean;
  /**
   * Past `ttlMs`, a loaded value is still answered for up to this long while ONE read in the
   * background replaces it (stale-while-revalidate): the hot path never waits for a read but
   * the first. Past `ttlMs + staleMs` (the read kept failing) readers wait for a fresh load.
   * 0 (default): readers wait for the load as soon as `ttlMs` has passed.
   */
  staleMs?: number;
}

/**
 * A value per key for `ttlMs`, shared by the readers that ask at once (one load for a burst);
 * a failed load is not kept, nor one `keep` refuses. `drop` forgets a key (after the process's
 * own write), `clear` every key; a load that was running meanwhile is not kept either (its
 * answer may predate the change). With `staleMs`, an expired value is answered while it is
 * read again in the background, so staleness is bounded by `ttlMs` plus one read (and by
 * `ttlMs + staleMs` while reads fail).
 */
export function createTtlCache<T>(ttlMs: number, options: TtlCacheOptions<T> = {}) {
  const now = options.now ?? (() => Date.now());
  const staleMs = options.staleMs ?? 0;
  const entries = new Map<string, Cached<T>>();
  let epoch = 0;

  /** Keeps `value` under `key` once it loads, unless the cache changed meanwhile. */
  function remember(key: string, value: Promise<T>): Cached<T> {
    const entry: Cached<T> = { at: now(), value, loaded: false, refreshing: false };
    const started = epoch;
    entries.set(key, entry);
    const forget = () => {
      if (entries.get(key) === entry) entries.delete(key);
    };
    value.then((loaded) => {
      if (epoch !== started || (options.keep && !options.keep(loaded))) forget();
      else entry.loaded = true;
    }, forget);
    return entry;
  }

  /** Reads `key` again in the background; the stale entry answers until the new one loads. */
  function refresh(key: string, stale: Cached<T>, load: () => Promise<T>): void {
    stale.refreshing = true;
    const started = epoch;
    load().then(
      (loaded) => {
        stale.refreshing = false;
        if (epoch !== started || entries.get(key) !== stale) return;
        if (options.keep && !options.keep(loaded)) entries.delete(key);
        else
          entries.set(key, {
            at: now(),
            value: Promise.resolve(loaded),
            loaded: true,
            refreshing: false,
          });
      },
      () => {
        stale.refreshing = false; // tried again by the next reader
      },
    );
  }

  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      const age = hit ? now() - hit.at : Infinity;
      if (hit && age < ttlMs) return hit.value;
      if (hit?.loaded && age < ttlMs + staleMs) {
        if (!hit.refreshing) refresh(key, hit, load);
        return hit.value;
      }
      if (ttlMs <= 0) return load();
      return remember(key, load()).value;
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
