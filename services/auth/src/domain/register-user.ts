import type { RegisterBody, User } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { claimKey } from '../data/claim.repository';
import { presentUser } from '../presenters/user.presenter';
import type { AuthDeps } from './auth-deps';
import { createAccount } from './create-account';
import type { IssuedSession } from './session-tokens';

/** Self-registration: rate limit → create the account → sign in. */
export async function registerUser(
  deps: AuthDeps,
  body: RegisterBody,
  clientIp: string,
): Promise<{ user: User; session: IssuedSession; events: Envelope[] }> {
  deps.limiter.attempt([
    { key: `register:ip:${clientIp}`, max: deps.limits.perIp },
    { key: `register:user:${claimKey(body.username)}`, max: deps.limits.perUsername },
  ]);
  const { user, events } = await createAccount(deps, { ...body, isSuperAdmin: false });
  const session = deps.tokens.issue(user);
  return { user: presentUser(user, {}), session, events };
}
