import type { KeyObject } from 'node:crypto';
import { Router } from 'express';
import type { OidcStatus } from '@aict/contracts';
import { AppError, requireContext } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { finishSsoSignIn } from '../domain/sso-sign-in';
import { setIdentityEvents } from '../http/identity-events';
import { clearPendingCookie, pendingOf, setPendingCookie } from '../http/oidc-cookie';
import { setSessionCookie } from '../http/session-cookie';

export interface OidcRoutesOptions {
  contextKey: KeyObject;
  secureCookies: boolean;
  /** Signs the cookie that carries state, nonce and PKCE verifier between the two steps. */
  cookieKey: Buffer;
  /** Where the browser lands once signed in. */
  appPath: string;
}

/** The sign-in page says why: "Single sign-on failed". */
export const SSO_FAILED_PATH = '/auth?sso=failed';

/** Single sign-on (OpenID Connect): public routes; 404 on the two steps when it is off. */
export function oidcRoutes(deps: AuthDeps, options: OidcRoutesOptions) {
  const { contextKey, secureCookies, cookieKey, appPath } = options;
  const router = Router();
  const anyCaller = requireContext(contextKey, { signedIn: false });
  const notConfigured = () => new AppError('NOT_FOUND', 404, 'Single sign-on is not configured');

  router.get('/api/auth/oidc', anyCaller, (_req, res) => {
    const status: OidcStatus = deps.sso
      ? { enabled: true, label: deps.sso.label }
      : { enabled: false, label: null };
    res.set('cache-control', 'no-store').json(status);
  });

  router.get('/api/auth/oidc/login', anyCaller, async (_req, res) => {
    if (!deps.sso) throw notConfigured();
    try {
      const { url, pending } = await deps.sso.client.start();
      setPendingCookie(res, cookieKey, pending, secureCookies);
      res.set('cache-control', 'no-store').redirect(302, url.href);
    } catch (err) {
      deps.logger.warn({ err }, 'single sign-on: the provider could not be reached');
      res.set('cache-control', 'no-store').redirect(302, SSO_FAILED_PATH);
    }
  });

  router.get('/api/auth/oidc/callback', anyCaller, async (req, res) => {
    const sso = deps.sso;
    if (!sso) throw notConfigured();
    const pending = pendingOf(req, cookieKey);
    clearPendingCookie(res, secureCookies);
    res.set('cache-control', 'no-store');
    if (!pending) {
      deps.logger.warn('single sign-on: callback without a sign-in under way');
      return res.redirect(302, SSO_FAILED_PATH);
    }
    const at = req.originalUrl.indexOf('?');
    const query = at < 0 ? '' : req.originalUrl.slice(at);
    try {
      const { session, events } = await finishSsoSignIn(deps, sso, query, pending);
      setSessionCookie(res, session, secureCookies);
      setIdentityEvents(res, events);
      return res.redirect(302, appPath);
    } catch (err) {
      deps.logger.warn({ err }, 'single sign-on failed');
      return res.redirect(302, SSO_FAILED_PATH);
    }
  });

  return router;
}
