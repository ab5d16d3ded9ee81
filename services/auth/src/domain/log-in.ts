import type { LoginBody, User } from '@aict/contracts';
import { claimKey } from '../data/claim.repository';
import type { UserRecord } from '../data/user.model';
import { presentUser } from '../presenters/user.presenter';
import type { AuthDeps } from './auth-deps';
import { burnTime, verifyPassword } from './passwords';
import type { IssuedSession } from './session-tokens';
import { userErrors } from './user.errors';

/**
 * Sign-in: rate limit (per client ip and per username) → find the user by the `_id` of
 * its username claim → verify the password (an unknown user costs a hash too, and gets the
 * same 401) → issue a session token. A successful sign-in gives its attempt back.
 */
export async function logIn(
  deps: AuthDeps,
  body: LoginBody,
  clientIp: string,
): Promise<{ user: User; session: IssuedSession }> {
  const attempt = deps.limiter.attempt([
    { key: `login:ip:${clientIp}`, max: deps.limits.perIp },
    { key: `login:user:${claimKey(body.username)}`, max: deps.limits.perUsername },
  ]);
  const user = await findByUsername(deps, body.username);
  const valid = user
    ? await verifyPassword(body.password, user.passwordHash)
    : await burnTime(body.password);
  if (!user || !valid) throw userErrors.invalidCredentials();
  attempt.refund();
  const session = deps.tokens.issue(user);
  return { user: presentUser(user, await deps.memberships.rolesOf(user._id)), session };
}

/** Two reads by `_id`: the claim, then its user (who must still hold that name). */
async function findByUsername(deps: AuthDeps, username: string): Promise<UserRecord | null> {
  const userId = await deps.claims.holderOf('username', username);
  if (!userId) return null;
  const user = await deps.users.findById(userId);
  return user && claimKey(user.username) === claimKey(username) ? user : null;
}
