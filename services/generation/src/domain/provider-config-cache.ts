import type { ProviderConfig } from '@aict/contracts';
import { createTtlCache, type TtlCacheOptions } from '../lib/ttl-cache';

/**
 * The provider configuration of each workspace, kept for a few seconds and shared by the
 * requests that ask at once (one `workspace.provider-config` request for a burst of 200
 * generations, not 200). `settings.changed` clears it (events/settings-changed.consumer.ts),
 * so a new key or model is used from the next generation on; the TTL bounds staleness when an
 * event is missed (e.g. while reconnecting), and with `staleMs` an expired configuration is
 * used while it is read again in the background. Failures are not kept.
 */
export interface ProviderConfigCache {
  get(workspaceId: number | null, load: () => Promise<ProviderConfig>): Promise<ProviderConfig>;
  clear(): void;
}

export function createProviderConfigCache(
  ttlMs: number,
  options: Pick<TtlCacheOptions<ProviderConfig>, 'now' | 'staleMs'> = {},
): ProviderConfigCache {
  const cache = createTtlCache<ProviderConfig>(ttlMs, options);
  return {
    get: (workspaceId, load) => cache.get(String(workspaceId), load),
    clear: () => cache.clear(),
  };
}
