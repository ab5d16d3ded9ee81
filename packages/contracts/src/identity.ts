import { z } from 'zod';
import { EntityId } from './ids';
import { Role } from './primitives';

/** The session cookie the auth service sets (see docs/adr/0001-identity-and-tenancy.md). */
export const SESSION_COOKIE = 'aict_session';
/** The signed context the gateway forwards to services. */
export const CONTEXT_HEADER = 'x-aict-context';
/** Identity events a service applied, for the gateway to apply before it answers. */
export const IDENTITY_EVENTS_HEADER = 'x-aict-identity-events';

export const TOKEN_ISSUER = 'aict-auth';
export const TOKEN_AUDIENCE = 'aict';
/** The `typ` header of a session token; its `kid` is the JWK thumbprint of the signing key. */
export const SESSION_TOKEN_TYPE = 'JWT';
export const CONTEXT_ISSUER = 'aict-gateway';
export const CONTEXT_AUDIENCE = 'aict-services';

/** Claims of the session token (ES256, signed by the auth service only). */
export const SessionClaims = z.object({
  sub: EntityId,
  sid: EntityId,
  tv: z.number().int().nonnegative(),
});
export type SessionClaims = z.infer<typeof SessionClaims>;

/** Claims of the trusted context (ES256, signed by the gateway only). */
export const TrustedContext = z.object({
  /** The signed-in user, or null for a signed-out caller of a public route. */
  uid: EntityId.nullable(),
  /** Super administrator. */
  sa: z.boolean(),
  /** Every workspace the caller belongs to, with the role there (keys are workspace ids). */
  roles: z.record(z.string().regex(/^[1-9][0-9]*$/), Role),
  /** The workspace the request names (X-Workspace-ID or ?workspaceId), if any. */
  ws: z.number().int().positive().nullable(),
  /** The caller's role in `ws` (super administrators: 'admin'). */
  role: Role.nullable(),
  /** Request id, also in the logs. */
  rid: z.string().min(1).max(128),
  /** The client's address as the gateway saw it (rate limits). */
  ip: z.string().max(64),
  /** The id of the personal API token the request was made with (absent: a session). */
  tok: EntityId.optional(),
});
export type TrustedContext = z.infer<typeof TrustedContext>;
