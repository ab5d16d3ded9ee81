import type { IdentitySnapshot } from '@aict/contracts';
import type { AuthDeps } from './auth-deps';

/** `auth.identity-snapshot`: what a gateway instance needs at start-up (ADR 0001). */
export async function identitySnapshot(deps: AuthDeps): Promise<IdentitySnapshot> {
  const [users, revoked] = await Promise.all([deps.users.findAll(), deps.sessions.findUnexpired()]);
  return {
    users: users.map((u) => ({
      id: u._id,
      tokenVersion: u.tokenVersion,
      isSuperAdmin: u.isSuperAdmin,
    })),
    revokedSessions: revoked.map((s) => ({
      sessionId: s._id,
      userId: s.userId,
      expiresAt: s.expiresAt.toISOString(),
    })),
  };
}
