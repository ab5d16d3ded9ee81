import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { IsoDateTime } from '../primitives';
import { ApiTokenScope } from '../http/tokens';

/**
 * Request/reply served by the auth service: a gateway asks what a bearer token is, by the
 * SHA-256 (hex) of the secret (the secret itself never leaves the gateway). The auth service
 * records the use (last used) when it answers. The gateway caches the answer briefly and
 * applies `api-token.revoked` over it.
 */
export const API_TOKEN_VERIFY_RPC = 'auth.api-token-verify';

export const ApiTokenVerifyRequest = z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/) });
export type ApiTokenVerifyRequest = z.infer<typeof ApiTokenVerifyRequest>;

/** `token: null`: unknown, revoked or expired. */
export const ApiTokenVerifyReply = z.object({
  token: z
    .object({
      id: EntityId,
      userId: EntityId,
      workspaceId: WorkspaceId,
      scopes: z.array(ApiTokenScope),
      expiresAt: IsoDateTime,
    })
    .nullable(),
});
export type ApiTokenVerifyReply = z.infer<typeof ApiTokenVerifyReply>;
