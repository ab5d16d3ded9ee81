import { SESSION_ROUTES } from '@aict/contracts';
import { AppError, RESPONDED, type MountRoute } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { finishSsoSignIn } from '../domain/sso-sign-in';
import { setIdentityEvents } from '../http/identity-events';
import { clearPendingCookie, pendingOf, setPendingCookie } from '../http/oidc-cookie';
import { setSessionCookie } from '../http/session-cookie';

export interface OidcRoutesOptions {
  secureCookies: boolean;
  /** Signs the cookie that carries state, nonce and PKCE verifier between the two steps. */
  cookieKey: Buffer;
  /** Where the browser lands once signed in. */
  appPath: string;
}

/** The sign-in page says why: "Single sign-on failed". */
export const SSO_FAILED_PATH = '/auth?sso=failed';

/** Single sign-on (OpenID Connect): public routes; 404 on the two steps when it is off. */
export function oidcRoutes(mount: MountRoute, deps: AuthDeps, options: OidcRoutesOptions): void {
  const { secureCookies, cookieKey, appPath } = options;
  const notConfigured = () => new AppError('NOT_FOUND', 404, 'Single sign-on is not configured');

  mount(SESSION_ROUTES.oidcStatus, ({ res }) => {
    res.set('cache-control', 'no-store');
    return deps.sso ? { enabled: true, label: deps.sso.label } : { enabled: false, label: null };
  });

  mount(SESSION_ROUTES.oidcLogin, async ({ res }) => {
    if (!deps.sso) throw notConfigured();
    res.set('cache-control', 'no-store');
    try {
      const { url, pending } = await deps.sso.client.start();
      setPendingCookie(res, cookieKey, pending, secureCookies);
      res.redirect(302, url.href);
    } catch (err) {
      deps.logger.warn({ err }, 'single sign-on: the provider could not be reached');
      res.redirect(302, SSO_FAILED_PATH);
    }
    return RESPONDED;
  });

  mount(SESSION_ROUTES.oidcCallback, async ({ req, res }) => {
    const sso = deps.sso;
    if (!sso) throw notConfigured();
    const pending = pendingOf(req, cookieKey);
    clearPendingCookie(res, secureCookies);
    res.set('cache-control', 'no-store');
    if (!pending) {
      deps.logger.warn('single sign-on: callback without a sign-in under way');
      res.redirect(302, SSO_FAILED_PATH);
      return RESPONDED;
    }
    // The provider's answer as it came (openid-client checks it, state and all).
    const at = req.originalUrl.indexOf('?');
    const query = at < 0 ? '' : req.originalUrl.slice(at);
    try {
      const { session, events } = await finishSsoSignIn(deps, sso, query, pending);
      setSessionCookie(res, session, secureCookies);
      setIdentityEvents(res, events);
      res.redirect(302, appPath);
    } catch (err) {
      deps.logger.warn({ err }, 'single sign-on failed');
      res.redirect(302, SSO_FAILED_PATH);
    }
    return RESPONDED;
  });
}
