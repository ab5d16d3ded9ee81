import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPrivateAddress } from './private-address';
import { isAllowedOrigin } from './provider-url-policy';

/** The code of the error raised when a connection to a refused address is attempted. */
export const BLOCKED_ADDRESS = 'EPROVIDERADDRESSBLOCKED';

class BlockedAddressError extends Error {
  readonly code = BLOCKED_ADDRESS;
  constructor(host: string) {
    super(`${host} resolves to a private, loopback or link-local address`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that refuses private addresses: the check happens when the socket connects. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    if (list.length === 0 || list.some((a) => isPrivateAddress(a.address)))
      return callback(new BlockedAddressError(hostname), []);
    if (options.all) return callback(null, list);
    const first = list[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}

/** Node's own fetch errors come from another realm under jest; recreate them here. */
function inThisRealm(error: unknown): unknown {
  if (error instanceof Error || typeof error !== 'object' || error === null) return error;
  const foreign = error as { name?: unknown; message?: unknown; cause?: unknown };
  const local = new Error(String(foreign.message ?? ''), { cause: foreign.cause });
  if (typeof foreign.name === 'string') local.name = foreign.name;
  return local;
}

export interface ProviderFetchOptions {
  /**
   * Product-entered URLs: the origins that may be reached although private (the local run's
   * simulator, PROVIDER_URL_ALLOWED_ORIGINS); every other connection must go to a public
   * address. `'any'`: the operator's own OPENAI_BASE_URL, reached wherever it points.
   */
  allowedOrigins: readonly string[] | 'any';
}

/**
 * The fetch the openai SDK uses to reach a provider. It never follows redirects (a 3xx comes
 * back as the answer), and unless the URL's origin is allowed it connects only to public
 * addresses: the host is checked when the socket connects, so a DNS answer that changed
 * since the URL was saved (DNS rebinding) is refused too. The one guard of both the
 * workspace service's "Test Connection" and the generation service.
 */
export interface ProviderFetch {
  fetch: typeof fetch;
  /** Closes the kept-alive connections (shutdown). */
  close(): Promise<void>;
}

export function createProviderFetch({ allowedOrigins }: ProviderFetchOptions): ProviderFetch {
  // Made at the first call (so undici is loaded then, not by a service that stays idle).
  let agents: { publicOnly: Agent; anyAddress: Agent } | undefined;
  const providerFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const trusted = allowedOrigins === 'any' || isAllowedOrigin(url, allowedOrigins);
    agents ??= {
      publicOnly: new Agent({ connect: { lookup: publicOnlyLookup } as object }),
      anyAddress: new Agent(),
    };
    const dispatcher = trusted ? agents.anyAddress : agents.publicOnly;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A literal IP address is never looked up, so check it here.
    if (!trusted && isIP(host) && isPrivateAddress(host)) {
      throw new TypeError('fetch failed', { cause: new BlockedAddressError(host) });
    }
    let body = init?.body;
    const headers = new Headers(init?.headers);
    if (body instanceof FormData) {
      // The SDK builds uploads (images.edit) with the global FormData, which the undici
      // package does not encode: encode it here with the global Response.
      const encoded = new Response(body);
      headers.set('content-type', encoded.headers.get('content-type') ?? 'multipart/form-data');
      body = Buffer.from(await encoded.arrayBuffer());
    }
    try {
      const response = await undiciFetch(url, {
        ...(init as object),
        headers,
        body,
        redirect: 'manual',
        dispatcher,
      } as unknown as Parameters<typeof undiciFetch>[1]);
      return response as unknown as Response;
    } catch (error) {
      throw inThisRealm(error);
    }
  };
  // The SDK probes `fetch.Response` to decide whether uploads can be sent as global FormData.
  Object.assign(providerFetch, { Response: globalThis.Response });
  return {
    fetch: providerFetch as typeof fetch,
    close: async () => {
      if (agents) await Promise.all([agents.publicOnly.close(), agents.anyAddress.close()]);
    },
  };
}

/** True when `error` (or one of its causes) is a refused connection to a private address. */
export function isBlockedAddressError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 8; depth++) {
    if ((e as { code?: unknown }).code === BLOCKED_ADDRESS) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
