import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SESSION_TOKEN_TYPE, SessionClaims, TOKEN_AUDIENCE, TOKEN_ISSUER } from '@aict/contracts';
import { keyRing, LruCache, verifyPinnedToken } from '@aict/service-kit';
import type { IdentityState } from '../identity/identity-state';

export interface Session {
  uid: string;
  sid: string;
  isSuperAdmin: boolean;
}

interface VerifiedToken {
  uid: string;
  sid: string;
  tv: number;
  /** The token's `exp`, in ms. */
  expiresAt: number;
}

/** Longer than any token the auth service issues; refused before any parsing. */
const MAX_TOKEN_LENGTH = 4096;

/**
 * The value of cookie `name` in a Cookie header (`a=1; aict_session=…`), or undefined.
 * The first occurrence wins; surrounding quotes are removed. Session tokens are base64url
 * and dots, so no decoding is needed.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let start = 0;
  while (start < header.length) {
    let end = header.indexOf(';', start);
    if (end === -1) end = header.length;
    const eq = header.indexOf('=', start);
    if (eq !== -1 && eq < end && header.slice(start, eq).trim() === name) {
      let value = header.slice(eq + 1, end).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
        value = value.slice(1, -1);
      }
      return value;
    }
    start = end + 1;
  }
  return undefined;
}

/**
 * Who is calling: the session token (cookie) verified with the auth service's public key,
 * algorithm, `typ` and `kid` pinned, no `crit` header, issuer, audience, `exp` and `iat`
 * (not in the future) checked, then the state checks
 * that make revocation take effect on the very next request: the user exists, the token's
 * version is not older than the user's, the session was not ended.
 *
 * Verifying an ES256 signature is the costly part, so verified tokens are cached by their
 * exact string (bounded, each entry until the token's own expiry); the state checks run on
 * every request, cached or not.
 */
export class SessionVerifier {
  private readonly verified: LruCache<string, VerifiedToken>;
  /** The auth service's key by its id (the `kid` a token must name). */
  private readonly keys: ReadonlyMap<string, KeyObject>;

  constructor(
    publicKey: KeyObject,
    private readonly state: IdentityState,
    options: { cacheSize?: number } = {},
  ) {
    this.verified = new LruCache(options.cacheSize ?? 10_000);
    this.keys = keyRing(publicKey);
  }

  /** The caller's session, or null: no token, an invalid one, or one no longer honoured. */
  authenticate(token: string | undefined, now = Date.now()): Session | null {
    if (!token || token.length > MAX_TOKEN_LENGTH) return null;
    let claims = this.verified.get(token);
    if (claims && claims.expiresAt <= now) {
      this.verified.delete(token);
      claims = undefined;
    }
    if (!claims) {
      claims = this.verify(token, now) ?? undefined;
      if (!claims) return null;
      this.verified.set(token, claims);
    }
    const user = this.state.user(claims.uid);
    if (!user || claims.tv < user.tokenVersion || this.state.isRevoked(claims.sid)) return null;
    return { uid: claims.uid, sid: claims.sid, isSuperAdmin: user.isSuperAdmin };
  }

  private verify(token: string, now: number): VerifiedToken | null {
    let payload: jwt.JwtPayload;
    try {
      payload = verifyPinnedToken(token, {
        keys: this.keys,
        typ: SESSION_TOKEN_TYPE,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        clockTimestamp: Math.floor(now / 1000),
      });
    } catch {
      // forged, tampered, expired, not yet issued, other algorithm, type, key id, issuer or
      // audience, a `crit` header, or no `exp`/`iat` (a token without an expiry would never
      // expire: the auth service always sets one)
      return null;
    }
    const claims = SessionClaims.safeParse(payload);
    if (!claims.success) return null;
    return {
      uid: claims.data.sub,
      sid: claims.data.sid,
      tv: claims.data.tv,
      expiresAt: payload.exp! * 1000,
    };
  }
}
