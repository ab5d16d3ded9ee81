import type { KeyObject } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { CreateUserBody, ResetPasswordBody, UpdateUserBody, UserIdParams } from '@aict/contracts';
import { contextOf, jsonBody, requireContext, validate } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { createUser } from '../domain/create-user';
import { deleteUser } from '../domain/delete-user';
import { listUsers } from '../domain/list-users';
import { resetPassword } from '../domain/reset-password';
import { updateUser } from '../domain/update-user';
import { adminScope } from '../domain/user-access';
import { setIdentityEvents } from '../http/identity-events';
import { presentUser } from '../presenters/user.presenter';
import { orEmpty } from './body';

/** 403 before a body is even read for anyone who administers nothing (the use cases check again). */
const administratorsOnly: RequestHandler = (req, _res, next) => {
  adminScope(contextOf(req));
  next();
};

/** SPEC §7 Users (`GET /api/users/:id/workspaces` is the workspace service's). */
export function userRoutes(deps: AuthDeps, { contextKey }: { contextKey: KeyObject }) {
  const router = Router();
  const signedIn = requireContext(contextKey);

  router.get('/api/users', signedIn, administratorsOnly, async (req, res) => {
    const users = await listUsers(deps, contextOf(req));
    res.set('cache-control', 'no-store').json(users.map((u) => presentUser(u.user, u.roles)));
  });

  router.post(
    '/api/users',
    signedIn,
    administratorsOnly,
    jsonBody(),
    validate({ body: orEmpty(CreateUserBody) }),
    async (req, res) => {
      const { user, roles, events } = await createUser(deps, contextOf(req), req.body);
      setIdentityEvents(res, events);
      res.status(201).json(presentUser(user, roles));
    },
  );

  router.put(
    '/api/users/:id',
    signedIn,
    administratorsOnly,
    jsonBody(),
    validate({ params: UserIdParams, body: orEmpty(UpdateUserBody) }),
    async (req, res) => {
      const { user, roles, events } = await updateUser(
        deps,
        contextOf(req),
        req.params.id,
        req.body,
      );
      setIdentityEvents(res, events);
      res.json(presentUser(user, roles));
    },
  );

  router.delete(
    '/api/users/:id',
    signedIn,
    administratorsOnly,
    validate({ params: UserIdParams }),
    async (req, res) => {
      const events = await deleteUser(deps, contextOf(req), req.params.id);
      setIdentityEvents(res, events);
      res.status(204).end();
    },
  );

  router.post(
    '/api/users/:id/reset-password',
    signedIn,
    administratorsOnly,
    jsonBody(),
    validate({ params: UserIdParams, body: orEmpty(ResetPasswordBody) }),
    async (req, res) => {
      const events = await resetPassword(deps, contextOf(req), req.params.id, req.body.password);
      setIdentityEvents(res, events);
      res.status(204).end();
    },
  );

  return router;
}
