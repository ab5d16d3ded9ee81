import type { ProviderConfig } from '@aict/contracts';

/**
 * The provider configuration of each workspace, kept for a few seconds and shared by the
 * requests that ask at once (one `workspace.provider-config` request for a burst of 200
 * generations, not 200). `settings.changed` clears it (events/settings-changed.consumer.ts),
 * so a new key or model is used from the next generation on; the TTL bounds staleness when an
 * event is missed (e.g. while reconnecting). Failures are not kept.
 */
export interface ProviderConfigCache {
  get(workspaceId: number | null, load: () => Promise<ProviderConfig>): Promise<ProviderConfig>;
  clear(): void;
}

export function createProviderConfigCache(
  ttlMs: number,
  now = () => Date.now(),
): ProviderConfigCache {
  const entries = new Map<string, { at: number; value: Promise<ProviderConfig> }>();
  let generation = 0;
  return {
    get(workspaceId, load) {
      const key = String(workspaceId);
      const hit = entries.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.value;
      const started = generation;
      const value = load();
      entries.set(key, { at: now(), value });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      // A clear() while loading: the answer may predate the change, keep it out.
      void value.then(
        () => {
          if (generation !== started && entries.get(key)?.value === value) entries.delete(key);
        },
        () => undefined,
      );
      return value;
    },
    clear() {
      generation += 1;
      entries.clear();
    },
  };
}
