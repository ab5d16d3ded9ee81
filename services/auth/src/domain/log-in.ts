import type { LoginBody } from '@aict/contracts';
import { claimKey } from '../data/claim.repository';
import type { UserRecord } from '../data/user.model';
import { recordAct } from './audit-acts';
import type { AuthDeps } from './auth-deps';
import { burnTime, verifyPassword } from './passwords';
import type { IssuedSession } from './session-tokens';
import { userErrors } from './user.errors';
import type { UserView } from './user-view';

/**
 * The sign-in (and registration) limits: per username AND client (an attacker's failures never lock the owner
 * out, who signs in from another client), and per client (one client spraying usernames).
 * Keys name the client as the gateway saw it (TRUSTED_PROXY_HOPS decides how).
 */
export function attemptBuckets(
  deps: AuthDeps,
  act: 'login' | 'register',
  username: string,
  client: string,
) {
  return [
    {
      key: `${act}:${encodeURIComponent(claimKey(username))}|${client}`,
      max: deps.limits.perUsername,
    },
    { key: `${act}-client:${client}`, max: deps.limits.perIp },
  ];
}

/**
 * Sign-in: rate limit (per username and client, and per client) and find the user by the
 * `_id` of its username claim, at once → verify the password (an unknown user costs a hash
 * too, and gets the same 401) → issue a session token. A successful sign-in gives its attempt
 * back.
 */
export async function logIn(
  deps: AuthDeps,
  body: LoginBody,
  clientIp: string,
): Promise<UserView & { session: IssuedSession }> {
  // The attempt is counted and the user read at once; a refused attempt throws before any
  // password work (what was read is dropped).
  const [attempt, user] = await Promise.all([
    deps.limiter.attempt(attemptBuckets(deps, 'login', body.username, clientIp)),
    findByUsername(deps, body.username),
  ]);
  const valid = user
    ? await verifyPassword(body.password, user.passwordHash)
    : await burnTime(body.password);
  const ssoOnly = user?.sso && deps.sso && !deps.sso.passwordLogin;
  if (!user || !valid || ssoOnly) {
    await recordAct(
      deps,
      { uid: null, ip: clientIp, ws: null },
      {
        action: 'session.login-failed',
        actorName: body.username,
        targetType: 'user',
        targetId: user?._id ?? body.username,
      },
    );
    // Users who came through single sign-on sign in there only, when so configured.
    throw userErrors.invalidCredentials();
  }
  // Independent of each other: at once (each is a round trip to the database or the broker).
  const [, , roles] = await Promise.all([
    attempt.refund(),
    recordAct(
      deps,
      { uid: user._id, ip: clientIp, ws: null },
      {
        action: 'session.login',
        actorName: user.username,
        targetType: 'user',
        targetId: user._id,
      },
    ),
    deps.memberships.rolesOf(user._id),
  ]);
  const session = deps.tokens.issue(user);
  return { user, roles, session };
}

/** Two reads by `_id`: the claim, then its user (who must still hold that name). */
async function findByUsername(deps: AuthDeps, username: string): Promise<UserRecord | null> {
  const userId = await deps.claims.holderOf('username', username);
  if (!userId) return null;
  const user = await deps.users.findById(userId);
  return user && claimKey(user.username) === claimKey(username) ? user : null;
}
