import type { CookieOptions, Request, Response } from 'express';
import { SESSION_COOKIE } from '@aict/contracts';
import type { IssuedSession } from '../domain/session-tokens';

/** ADR 0001: HttpOnly, SameSite=Strict, Path=/, Secure in production. */
function cookieOptions(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', path: '/', secure };
}

export function setSessionCookie(res: Response, session: IssuedSession, secure: boolean): void {
  res.cookie(SESSION_COOKIE, session.token, {
    ...cookieOptions(secure),
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(secure));
}

/** The session token the browser sent (the gateway passes the Cookie header through). */
export function sessionCookieOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}
