import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { API_TOKEN_PATTERN, type ApiTokenScope, type ApiTokenVerifyReply } from '@aict/contracts';
import { LruCache } from '@aict/service-kit';
import type { IdentityState } from '../identity/identity-state';

/** What the auth service said about a token (null: unknown, revoked or expired). */
export type ApiTokenInfo = NonNullable<ApiTokenVerifyReply['token']>;

/** Asks the auth service about the SHA-256 (hex) of a secret (`auth.api-token-verify`). */
export type ApiTokenLookup = (hash: string) => Promise<ApiTokenInfo | null>;

export interface ApiTokenIdentity {
  tokenId: string;
  uid: string;
  ws: number;
  scopes: readonly ApiTokenScope[];
}

interface Cached {
  info: ApiTokenInfo | null;
  expiresAt: number;
  /** Until when the answer is reused (then the auth service is asked again). */
  until: number;
}

export interface ApiTokenVerifierOptions {
  /** How long an answer is reused; also how often a token's last use is recorded. Default 60 s. */
  ttlMs?: number;
  cacheSize?: number;
}

const TOKEN_OF_REQUEST = new WeakMap<IncomingMessage, string>();

/** The id of the API token a request was authorised with (the access log names it). */
export function apiTokenIdOf(req: IncomingMessage): string | undefined {
  return TOKEN_OF_REQUEST.get(req);
}

export function markApiTokenRequest(req: IncomingMessage, tokenId: string): void {
  TOKEN_OF_REQUEST.set(req, tokenId);
}

/** `Authorization: Bearer <token>` → the token, or undefined when the header is no bearer. */
export function bearerOf(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^bearer(?:[ \t]+(.*))?$/is.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

/**
 * Who is calling with a personal API token. The secret is hashed at once (only the hash is
 * kept or sent anywhere); the auth service's answer for the hash is cached briefly (bounded,
 * unknown tokens too, so a flood of made-up tokens reaches the auth service once per token),
 * and concurrent first requests share one question. The state checks run on every request,
 * cached or not: the token has not expired, was not revoked (`api-token.revoked`, applied
 * from RabbitMQ and from the revoking answer), and its user still exists.
 */
export class ApiTokenVerifier {
  private readonly cache: LruCache<string, Cached>;
  private readonly pending = new Map<string, Promise<Cached>>();
  private readonly ttlMs: number;

  constructor(
    private readonly lookup: ApiTokenLookup,
    private readonly state: IdentityState,
    options: ApiTokenVerifierOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.cache = new LruCache(options.cacheSize ?? 10_000);
  }

  /** The token's identity, or null: malformed, unknown, expired, revoked, user gone. */
  async authenticate(secret: string, now = Date.now()): Promise<ApiTokenIdentity | null> {
    if (!API_TOKEN_PATTERN.test(secret)) return null;
    const hash = createHash('sha256').update(secret, 'utf8').digest('hex');
    let entry = this.cache.get(hash);
    if (!entry || entry.until <= now) entry = await this.ask(hash, now);
    const info = entry.info;
    if (!info || entry.expiresAt <= Date.now()) return null;
    if (this.state.isApiTokenRevoked(info.id) || !this.state.user(info.userId)) return null;
    return { tokenId: info.id, uid: info.userId, ws: info.workspaceId, scopes: info.scopes };
  }

  private ask(hash: string, now: number): Promise<Cached> {
    let pending = this.pending.get(hash);
    if (!pending) {
      pending = this.lookup(hash)
        .then((info): Cached => {
          const entry = {
            info,
            expiresAt: info ? Date.parse(info.expiresAt) : 0,
            until: now + this.ttlMs,
          };
          this.cache.set(hash, entry);
          return entry;
        })
        .finally(() => this.pending.delete(hash));
      this.pending.set(hash, pending);
    }
    return pending;
  }
}
