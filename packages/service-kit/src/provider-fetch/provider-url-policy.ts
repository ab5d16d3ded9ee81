import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../errors';
import { isPrivateAddress } from './private-address';

/**
 * Which provider base URLs entered in the product may reach a private, loopback or
 * link-local address: exactly the origins listed (scheme, host and port), e.g. the local
 * run's provider simulator. Everything else must be public (and https).
 */
export interface ProviderUrlPolicy {
  allowedOrigins: readonly string[];
  /** Replaced in tests. */
  resolve?: (hostname: string) => Promise<string[]>;
}

/** True when `url` is on one of the allowed origins. */
export function isAllowedOrigin(url: URL, allowedOrigins: readonly string[]): boolean {
  return allowedOrigins.includes(url.origin);
}

const defaultResolve = async (hostname: string) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const notAllowed = (message: string) => new AppError('PROVIDER.URL_NOT_ALLOWED', 400, message);

/**
 * Refuses a provider base URL entered in the product that would make a service call an
 * internal address: unless its origin is allowed, it must use https and every address its
 * host name resolves to must be public. The provider fetch checks the address again when it
 * connects (DNS rebinding), with the same policy.
 */
export async function assertProviderBaseUrl(
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
  if (isAllowedOrigin(url, policy.allowedOrigins)) return;
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
