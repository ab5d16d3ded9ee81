import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import type { PendingSignIn } from '../rpc/oidc.client';

/** The state, nonce and PKCE verifier of a single sign-on under way (10 minutes at most). */
export const OIDC_COOKIE = 'aict_oidc';
const MAX_AGE_MS = 10 * 60 * 1000;

/**
 * HttpOnly and signed; SameSite=Lax because the provider sends the browser back with a
 * cross-site top-level navigation; sent to the single sign-on routes only.
 */
function cookieOptions(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/api/auth/oidc', secure };
}

const sign = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(payload).digest('base64url');

export function setPendingCookie(
  res: Response,
  key: Buffer,
  pending: PendingSignIn,
  secure: boolean,
): void {
  const payload = Buffer.from(
    JSON.stringify({ ...pending, exp: Date.now() + MAX_AGE_MS }),
    'utf8',
  ).toString('base64url');
  res.cookie(OIDC_COOKIE, `${payload}.${sign(key, payload)}`, {
    ...cookieOptions(secure),
    maxAge: MAX_AGE_MS,
  });
}

export function clearPendingCookie(res: Response, secure: boolean): void {
  res.clearCookie(OIDC_COOKIE, cookieOptions(secure));
}

/** The sign-in under way, if the cookie is there, intact and not expired. */
export function pendingOf(req: Request, key: Buffer): PendingSignIn | null {
  const raw = (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${OIDC_COOKIE}=`))
    ?.slice(OIDC_COOKIE.length + 1);
  if (!raw) return null;
  const [payload, mac] = decodeURIComponent(raw).split('.');
  if (!payload || !mac) return null;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const { state, nonce, codeVerifier, exp } = value;
    if (typeof exp !== 'number' || exp < Date.now()) return null;
    if (typeof state !== 'string' || typeof nonce !== 'string' || typeof codeVerifier !== 'string')
      return null;
    return { state, nonce, codeVerifier };
  } catch {
    return null;
  }
}
