import type { KeyObject } from 'node:crypto';
import type { TrustedContext } from '@aict/contracts';
import { LruCache, signContext } from '@aict/service-kit';

export interface ContextSignerOptions {
  /** A signed context is reused this long (services get it with at least `lifetime - reuse` left). */
  reuseMs?: number;
  /** The context token's own lifetime (`exp`). */
  lifetimeSeconds?: number;
  cacheSize?: number;
}

interface Signed {
  token: string;
  until: number;
}

/**
 * Signs the trusted context (ES256, `x-aict-context`). An ES256 signature per request would
 * be the gateway's largest cost, so a signed context is reused for up to 30 s by callers
 * with the same key: user, workspace, super-admin flag, roles version and client address
 * (the key holds everything the claims are made of, except `rid`). Any change of roles
 * changes the roles version, so a new context is signed on the very next request.
 *
 * `rid` is therefore the id of the request that caused the signature; the id of each
 * request travels in `x-request-id`, which is what services log.
 */
export class ContextSigner {
  private readonly cache: LruCache<string, Signed>;
  private readonly reuseMs: number;
  private readonly lifetimeSeconds: number;

  constructor(
    private readonly privateKey: KeyObject,
    options: ContextSignerOptions = {},
  ) {
    this.reuseMs = options.reuseMs ?? 30_000;
    this.lifetimeSeconds = options.lifetimeSeconds ?? 60;
    if (this.reuseMs >= this.lifetimeSeconds * 1000) {
      throw new Error('ContextSigner: reuseMs must be shorter than the lifetime');
    }
    this.cache = new LruCache(options.cacheSize ?? 10_000);
  }

  /** `key` must change whenever any claim but `rid` would. */
  sign(key: string, context: () => TrustedContext, now = Date.now()): string {
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.token;
    const token = signContext(this.privateKey, context(), this.lifetimeSeconds);
    this.cache.set(key, { token, until: now + this.reuseMs });
    return token;
  }
}
