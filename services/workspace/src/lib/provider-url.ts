import { assertProviderBaseUrl, type ProviderUrlPolicy } from '@aict/service-kit';

export type { ProviderUrlPolicy };

/** `https://host/v1/` → `https://host/v1` (no fragment, no trailing slash). */
export function normaliseBaseUrl(value: string): string {
  const url = new URL(value.trim());
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/**
 * Refuses a base URL entered in the product that would make this service (or the generation
 * service) call an internal address: it must use https and resolve to public addresses only,
 * unless its origin is in PROVIDER_URL_ALLOWED_ORIGINS. The check itself is service-kit's,
 * the same guard the provider fetch applies again when it connects.
 */
export const assertAllowedBaseUrl = (value: string, policy: ProviderUrlPolicy): Promise<void> =>
  assertProviderBaseUrl(value, policy);
