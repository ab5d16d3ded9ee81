import type { RegisterBody, User } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { presentUser } from '../presenters/user.presenter';
import type { AuthDeps } from './auth-deps';
import { createAccount } from './create-account';
import { attemptBuckets } from './log-in';
import type { IssuedSession } from './session-tokens';

/** Self-registration: rate limit → create the account → sign in. */
export async function registerUser(
  deps: AuthDeps,
  body: RegisterBody,
  clientIp: string,
): Promise<{ user: User; session: IssuedSession; events: Envelope[] }> {
  await deps.limiter.attempt(attemptBuckets(deps, 'register', body.username, clientIp));
  const { user, events } = await createAccount(deps, { ...body, isSuperAdmin: false });
  const session = deps.tokens.issue(user);
  return { user: presentUser(user, {}), session, events };
}
