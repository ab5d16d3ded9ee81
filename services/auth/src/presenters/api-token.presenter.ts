import type { ApiToken, CreatedApiToken } from '@aict/contracts';
import type { ApiTokenRecord } from '../data/api-token.model';

/** The only place a token record becomes a response: never the hash; the secret only on creation. */
export function presentApiToken(token: ApiTokenRecord): ApiToken {
  return {
    id: token.tokenId,
    name: token.name,
    workspaceId: token.workspaceId,
    scopes: [...token.scopes],
    hint: token.hint,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    lastUsedAt: token.lastUsedAt ? token.lastUsedAt.toISOString() : null,
  };
}

export function presentCreatedApiToken(token: ApiTokenRecord, secret: string): CreatedApiToken {
  return { ...presentApiToken(token), token: secret };
}
