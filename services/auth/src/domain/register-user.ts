import type { RegisterBody } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import type { AuthDeps } from './auth-deps';
import { createAccount } from './create-account';
import { attemptBuckets } from './log-in';
import type { IssuedSession } from './session-tokens';
import type { UserView } from './user-view';

/** Self-registration: rate limit → create the account → sign in. */
export async function registerUser(
  deps: AuthDeps,
  body: RegisterBody,
  clientIp: string,
): Promise<UserView & { session: IssuedSession; events: Envelope[] }> {
  await deps.limiter.attempt(attemptBuckets(deps, 'register', body.username, clientIp));
  const { user, events } = await createAccount(deps, { ...body, isSuperAdmin: false });
  const session = deps.tokens.issue(user);
  return { user, roles: {}, session, events };
}
