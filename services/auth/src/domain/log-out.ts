import type { Envelope } from '@aict/service-kit';
import type { AuthDeps } from './auth-deps';

/**
 * Ends the session of the token the browser presented: records its `sid` as revoked until
 * the token expires, with `session.revoked`. A missing, invalid or expired token, or one
 * revoked before, has nothing left to end.
 */
export async function logOut(deps: AuthDeps, token: string | undefined): Promise<Envelope[]> {
  const claims = token ? deps.tokens.verify(token) : null;
  if (!claims) return [];
  const expiresAt = new Date(claims.exp * 1000);
  const events = [
    deps.events.envelope('session.revoked', {
      sessionId: claims.sid,
      userId: claims.sub,
      expiresAt: expiresAt.toISOString(),
    }),
  ];
  const revoked = await deps.sessions.revoke(
    { _id: claims.sid, userId: claims.sub, expiresAt },
    events,
  );
  if (!revoked) return [];
  deps.events.publishSoon(deps.sessions.model, claims.sid);
  return events;
}
