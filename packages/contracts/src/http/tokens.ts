import { z } from 'zod';
import { EntityId, WorkspaceId } from '../ids';
import { integer, IsoDateTime, requiredText } from '../primitives';
import { IdParams, type RouteDef } from './route';

/**
 * Personal API tokens (issue 17): a member's secret for scripts, scoped to one workspace
 * and a set of actions, sent as `Authorization: Bearer aict_…`. The auth service keeps only
 * the SHA-256 of the secret; the secret is shown once, in the answer that creates it.
 */

/** What a token may do: the routes that accept one name the scope they need (RouteDef.apiToken). */
export const API_TOKEN_SCOPES = ['generate', 'read-contents'] as const;
export const ApiTokenScope = z.enum(API_TOKEN_SCOPES, {
  error: 'Scope must be generate or read-contents',
});
export type ApiTokenScope = z.infer<typeof ApiTokenScope>;

/** Every secret starts with it (secret scanners and people recognise it). */
export const API_TOKEN_PREFIX = 'aict_';
/** `aict_` and 43 base64url characters (32 random bytes). */
export const API_TOKEN_PATTERN = /^aict_[A-Za-z0-9_-]{43}$/;
export const API_TOKEN_NAME_MAX = 100;
export const API_TOKEN_MAX_DAYS = 365;
export const API_TOKEN_DEFAULT_DAYS = 30;

/** A token as its owner sees it: never the secret, never its hash. */
export const ApiToken = z.object({
  id: EntityId,
  name: z.string(),
  workspaceId: WorkspaceId,
  scopes: z.array(ApiTokenScope),
  /** The secret's first characters (`aict_AbCd`), to tell tokens apart. */
  hint: z.string(),
  createdAt: IsoDateTime,
  expiresAt: IsoDateTime,
  /** When it was last accepted (to the minute or so: the gateway caches it briefly). */
  lastUsedAt: IsoDateTime.nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const CreateApiTokenBody = z.object({
  name: requiredText('Name', API_TOKEN_NAME_MAX),
  workspaceId: WorkspaceId,
  scopes: z
    .array(ApiTokenScope, { error: 'Choose at least one scope' })
    .min(1, 'Choose at least one scope')
    .max(API_TOKEN_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)]),
  expiresInDays: integer('Expiry in days', 1, API_TOKEN_MAX_DAYS).default(API_TOKEN_DEFAULT_DAYS),
});
export type CreateApiTokenBody = z.input<typeof CreateApiTokenBody>;

/** The create answer: the only one that ever carries the secret. */
export const CreatedApiToken = ApiToken.extend({
  token: z.string().regex(API_TOKEN_PATTERN),
});
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const ApiTokensResponse = z.array(ApiToken);
export type ApiTokensResponse = z.infer<typeof ApiTokensResponse>;

/**
 * The signed-in user's own tokens. A request made with a token never reaches these (the
 * gateway accepts tokens only on routes that name a scope).
 */
export const TOKEN_ROUTES = {
  list: {
    method: 'GET',
    path: '/api/tokens',
    service: 'auth',
    access: 'signed-in',
    response: ApiTokensResponse,
  },
  create: {
    method: 'POST',
    path: '/api/tokens',
    service: 'auth',
    access: 'signed-in',
    workspaceByUseCase: true,
    status: 201,
    body: CreateApiTokenBody,
    response: CreatedApiToken,
  },
  /** 204; a token already revoked or another user's answers 404. */
  revoke: {
    method: 'DELETE',
    path: '/api/tokens/:id',
    service: 'auth',
    access: 'signed-in',
    params: IdParams,
    response: null,
  },
} as const satisfies Record<string, RouteDef>;
