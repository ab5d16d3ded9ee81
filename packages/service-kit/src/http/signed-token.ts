/**
 * ES256 tokens with a pinned header: the session token (auth service → gateway) and the
 * trusted context (gateway → services). jsonwebtoken checks the signature, `alg`, issuer,
 * audience and expiry; this adds what it leaves open: `typ`, `kid` (one of the known keys),
 * no `crit`, a required `exp` and `iat`, and no `iat` in the future.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/**
 * The key id of an EC public key (or of the public half of a private one): its JWK
 * thumbprint (RFC 7638, SHA-256, base64url). Both sides derive it from the key they hold,
 * so no key id needs configuring, and a rotated key gets a new one.
 */
export function keyIdOf(key: KeyObject): string {
  const jwk = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' });
  if (jwk.kty !== 'EC') throw new Error('keyIdOf: only EC keys are used here');
  // RFC 7638 §3.2: the required members only, in lexicographic order, no whitespace.
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** What a token must be, besides signed by one of `keys`. */
export interface PinnedToken {
  /** The known keys by key id (`kid`); a token naming another id is refused. */
  keys: ReadonlyMap<string, KeyObject>;
  typ: string;
  issuer: string;
  audience: string;
  /** An `iat` later than now by more than this is refused (clocks differ a little). */
  clockSkewSeconds?: number;
  /** A token whose `exp - iat` exceeds this is refused. */
  maxLifetimeSeconds?: number;
  /** Now, in seconds (tests). */
  clockTimestamp?: number;
}

/** Clocks of two machines of one deployment differ by less than this. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 30;

/** The key map of one key: `{ keyIdOf(key) → key }`. */
export function keyRing(...keys: KeyObject[]): ReadonlyMap<string, KeyObject> {
  return new Map(keys.map((key) => [keyIdOf(key), key]));
}

/**
 * Verifies an ES256 token against a pinned header and returns its payload; throws on any
 * failure (the callers answer 401 or null, and never say which check failed).
 */
export function verifyPinnedToken(token: string, pin: PinnedToken): jwt.JwtPayload {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded.payload !== 'object') throw new Error('not a JWT');
  const key = typeof decoded.header.kid === 'string' ? pin.keys.get(decoded.header.kid) : undefined;
  if (!key) throw new Error('unknown key id');
  const now = pin.clockTimestamp ?? Math.floor(Date.now() / 1000);
  const verified = jwt.verify(token, key, {
    algorithms: ['ES256'],
    issuer: pin.issuer,
    audience: pin.audience,
    clockTimestamp: now,
    complete: true,
  });
  const { header, payload } = verified;
  if (header.alg !== 'ES256') throw new Error('algorithm');
  if (header.typ !== pin.typ) throw new Error('token type');
  // RFC 7515 §4.1.11: an extension we do not understand must not be ignored.
  if (Object.prototype.hasOwnProperty.call(header, 'crit')) throw new Error('crit header');
  if (typeof payload !== 'object') throw new Error('payload');
  const { iat, exp } = payload;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw new Error('exp required');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new Error('iat required');
  if (iat > now + (pin.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS))
    throw new Error('issued in the future');
  if (pin.maxLifetimeSeconds !== undefined && exp - iat > pin.maxLifetimeSeconds)
    throw new Error('lifetime too long');
  return payload;
}
