import { z } from 'zod';
import { EntityId } from '../ids';
import { IsoDateTime } from '../primitives';

/**
 * Request/reply served by the auth service (docs/adr/0001-identity-and-tenancy.md): what a
 * gateway instance loads at start-up, after it has subscribed to the identity events.
 */
export const IDENTITY_SNAPSHOT_RPC = 'auth.identity-snapshot';

/** The request carries nothing (an empty object; unknown keys are ignored). */
export const IdentitySnapshotRequest = z.object({}).loose();
export type IdentitySnapshotRequest = z.infer<typeof IdentitySnapshotRequest>;

export const IdentitySnapshotUser = z.object({
  id: EntityId,
  /** Session tokens whose `tv` is lower are refused. */
  tokenVersion: z.number().int().nonnegative(),
  isSuperAdmin: z.boolean(),
});
export type IdentitySnapshotUser = z.infer<typeof IdentitySnapshotUser>;

/** A session ended by logout; its token is refused until `expiresAt`. */
export const RevokedSession = z.object({
  sessionId: EntityId,
  userId: EntityId,
  expiresAt: IsoDateTime,
});
export type RevokedSession = z.infer<typeof RevokedSession>;

/** Every existing user, and the revoked sessions that have not expired yet. */
export const IdentitySnapshot = z.object({
  users: z.array(IdentitySnapshotUser),
  revokedSessions: z.array(RevokedSession),
});
export type IdentitySnapshot = z.infer<typeof IdentitySnapshot>;
