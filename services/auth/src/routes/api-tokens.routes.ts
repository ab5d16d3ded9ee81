import type { KeyObject } from 'node:crypto';
import { Router } from 'express';
import { CreateApiTokenBody, IdParams } from '@aict/contracts';
import { contextOf, jsonBody, requireContext, validate } from '@aict/service-kit';
import { createApiToken, listApiTokens, revokeApiToken } from '../domain/api-tokens';
import type { AuthDeps } from '../domain/auth-deps';
import { setIdentityEvents } from '../http/identity-events';
import { presentApiToken, presentCreatedApiToken } from '../presenters/api-token.presenter';
import { orEmpty } from './body';

/** Personal API tokens (issue 17): the signed-in user's own. */
export function apiTokenRoutes(deps: AuthDeps, { contextKey }: { contextKey: KeyObject }) {
  const router = Router();
  const signedIn = requireContext(contextKey);

  router.get('/api/tokens', signedIn, async (req, res) => {
    const tokens = await listApiTokens(deps, contextOf(req));
    res.set('cache-control', 'no-store').json(tokens.map(presentApiToken));
  });

  router.post(
    '/api/tokens',
    signedIn,
    jsonBody(),
    validate({ body: orEmpty(CreateApiTokenBody) }),
    async (req, res) => {
      const { record, secret } = await createApiToken(deps, contextOf(req), req.body);
      res.set('cache-control', 'no-store').status(201).json(presentCreatedApiToken(record, secret));
    },
  );

  router.delete('/api/tokens/:id', signedIn, validate({ params: IdParams }), async (req, res) => {
    const events = await revokeApiToken(deps, contextOf(req), req.params.id);
    // The gateway applies the revocation before it forwards the answer.
    setIdentityEvents(res, events);
    res.status(204).end();
  });

  return router;
}
