import type { KeyObject } from 'node:crypto';
import { Router } from 'express';
import { LoginBody, RegisterBody, UpdateOwnUserBody } from '@aict/contracts';
import { contextOf, jsonBody, requireContext, validate } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { getCurrentUser } from '../domain/get-current-user';
import { logIn } from '../domain/log-in';
import { logOut } from '../domain/log-out';
import { registerUser } from '../domain/register-user';
import { updateOwnUser } from '../domain/update-own-user';
import { setIdentityEvents } from '../http/identity-events';
import { clearSessionCookie, sessionCookieOf, setSessionCookie } from '../http/session-cookie';
import { presentUser } from '../presenters/user.presenter';
import { orEmpty } from './body';

export interface SessionRoutesOptions {
  contextKey: KeyObject;
  secureCookies: boolean;
}

/** SPEC §7 Session: public routes (the gateway sends a context with `uid: null` when signed out). */
export function sessionRoutes(deps: AuthDeps, { contextKey, secureCookies }: SessionRoutesOptions) {
  const router = Router();
  const anyCaller = requireContext(contextKey, { signedIn: false });

  router.get('/api/user', anyCaller, async (req, res) => {
    const { user, roles } = await getCurrentUser(deps, contextOf(req));
    res.set('cache-control', 'no-store').json(presentUser(user, roles));
  });

  // the signed-in user's own preferences (the UI language); not in SPEC §7, added for it
  router.patch(
    '/api/user',
    requireContext(contextKey),
    jsonBody(),
    validate({ body: orEmpty(UpdateOwnUserBody) }),
    async (req, res) => {
      const { user, roles } = await updateOwnUser(deps, contextOf(req), req.body);
      res.set('cache-control', 'no-store').json(presentUser(user, roles));
    },
  );

  router.post(
    '/api/login',
    anyCaller,
    jsonBody(),
    validate({ body: orEmpty(LoginBody) }),
    async (req, res) => {
      const { user, roles, session } = await logIn(deps, req.body, contextOf(req).ip);
      setSessionCookie(res, session, secureCookies);
      res.set('cache-control', 'no-store').json(presentUser(user, roles));
    },
  );

  router.post(
    '/api/register',
    anyCaller,
    jsonBody(),
    validate({ body: orEmpty(RegisterBody) }),
    async (req, res) => {
      const { user, roles, session, events } = await registerUser(
        deps,
        req.body,
        contextOf(req).ip,
      );
      setSessionCookie(res, session, secureCookies);
      setIdentityEvents(res, events);
      res.status(201).set('cache-control', 'no-store').json(presentUser(user, roles));
    },
  );

  router.post('/api/logout', anyCaller, async (req, res) => {
    const events = await logOut(deps, sessionCookieOf(req));
    clearSessionCookie(res, secureCookies);
    setIdentityEvents(res, events);
    res.status(204).end();
  });

  return router;
}
