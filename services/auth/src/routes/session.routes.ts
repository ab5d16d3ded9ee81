import { SESSION_ROUTES, USER_ROUTES } from '@aict/contracts';
import type { MountRoute } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { getCurrentUser } from '../domain/get-current-user';
import { logIn } from '../domain/log-in';
import { logOut } from '../domain/log-out';
import { registerUser } from '../domain/register-user';
import { updateOwnUser } from '../domain/update-own-user';
import { setIdentityEvents } from '../http/identity-events';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from '../http/session-cookie';
import { presentUser } from '../presenters/user.presenter';

/** SPEC §7 Session: public routes (the gateway sends a context with `uid: null` when signed out). */
export function sessionRoutes(
  mount: MountRoute,
  deps: AuthDeps,
  { secureCookies }: { secureCookies: boolean },
): void {
  mount(SESSION_ROUTES.currentUser, async ({ res, ctx }) => {
    const { user, roles } = await getCurrentUser(deps, ctx);
    res.set('cache-control', 'no-store');
    return presentUser(user, roles);
  });

  // the signed-in user's own preferences (the UI language); not in SPEC §7, added for it
  mount(USER_ROUTES.updateOwn, async ({ res, ctx, body }) => {
    const { user, roles } = await updateOwnUser(deps, ctx, body);
    res.set('cache-control', 'no-store');
    return presentUser(user, roles);
  });

  mount(SESSION_ROUTES.login, async ({ res, ctx, body }) => {
    const { user, roles, session } = await logIn(deps, body, ctx.ip);
    setSessionCookie(res, session, secureCookies);
    res.set('cache-control', 'no-store');
    return presentUser(user, roles);
  });

  mount(SESSION_ROUTES.register, async ({ res, ctx, body }) => {
    const { user, roles, session, events } = await registerUser(deps, body, ctx.ip);
    setSessionCookie(res, session, secureCookies);
    setIdentityEvents(res, events);
    res.set('cache-control', 'no-store');
    return presentUser(user, roles);
  });

  mount(SESSION_ROUTES.logout, async ({ req, res }) => {
    const events = await logOut(deps, sessionCookieOf(req));
    clearSessionCookie(res, secureCookies);
    setIdentityEvents(res, events);
  });
}
