import { TOKEN_ROUTES } from '@aict/contracts';
import type { MountRoute } from '@aict/service-kit';
import { createApiToken, listApiTokens, revokeApiToken } from '../domain/api-tokens';
import type { AuthDeps } from '../domain/auth-deps';
import { setIdentityEvents } from '../http/identity-events';
import { presentApiToken, presentCreatedApiToken } from '../presenters/api-token.presenter';

/** Personal API tokens (issue 17): the signed-in user's own. */
export function apiTokenRoutes(mount: MountRoute, deps: AuthDeps): void {
  mount(TOKEN_ROUTES.list, async ({ res, ctx }) => {
    const tokens = await listApiTokens(deps, ctx);
    res.set('cache-control', 'no-store');
    return tokens.map(presentApiToken);
  });

  mount(TOKEN_ROUTES.create, async ({ res, ctx, body }) => {
    const { record, secret } = await createApiToken(deps, ctx, body);
    res.set('cache-control', 'no-store');
    return presentCreatedApiToken(record, secret);
  });

  mount(TOKEN_ROUTES.revoke, async ({ res, ctx, params }) => {
    // The gateway applies the revocation before it forwards the answer.
    setIdentityEvents(res, await revokeApiToken(deps, ctx, params.id));
  });
}
