import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '@aict/service-kit';
import { isPrivateAddress } from '@aict/service-kit';

export interface ProviderUrlPolicy {
  /** ALLOW_PRIVATE_PROVIDER_URLS: private addresses and plain http are accepted. */
  allowPrivate: boolean;
  /** Replaced in tests. */
  resolve?: (hostname: string) => Promise<string[]>;
}

const defaultResolve = async (hostname: string) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** `https://host/v1/` → `https://host/v1` (no fragment, no trailing slash). */
export function normaliseBaseUrl(value: string): string {
  const url = new URL(value.trim());
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

const notAllowed = (message: string) => new AppError('PROVIDER.URL_NOT_ALLOWED', 400, message);

/**
 * Refuses a base URL entered in the product that would make this service call an internal
 * address: every address its host name resolves to must be public (checked again at connect
 * time by the provider fetch, against DNS rebinding), and it must use https; unless the
 * operator allows private addresses.
 */
export async function assertAllowedBaseUrl(
  value: string,
  policy: ProviderUrlPolicy,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw AppError.badRequest('VALIDATION.FAILED', 'Base URL must be an http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw AppError.badRequest('VALIDATION.FAILED', 'Base URL must be an http(s) URL');
  if (url.username || url.password)
    throw AppError.badRequest('VALIDATION.FAILED', 'Base URL must not contain credentials');
  if (policy.allowPrivate) return;
  if (url.protocol !== 'https:') throw notAllowed('Base URL must use https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await (policy.resolve ?? defaultResolve)(host);
    } catch {
      throw AppError.badRequest(
        'VALIDATION.FAILED',
        `The host name ${host} of the base URL could not be resolved`,
      );
    }
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    throw notAllowed(
      'The base URL points at a private, loopback or link-local address, which is not allowed',
    );
  }
}
