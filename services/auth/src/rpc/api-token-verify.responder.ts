import { API_TOKEN_VERIFY_RPC, ApiTokenVerifyRequest } from '@aict/contracts';
import type { Bus } from '@aict/service-kit';
import { verifyApiToken } from '../domain/api-tokens';
import type { AuthDeps } from '../domain/auth-deps';

/** Serves `auth.api-token-verify` (request/reply): the gateways' lookup of a bearer token. */
export function serveApiTokenVerify(bus: Bus, deps: AuthDeps) {
  return bus.serve(API_TOKEN_VERIFY_RPC, ApiTokenVerifyRequest, ({ hash }) =>
    verifyApiToken(deps, hash),
  );
}
