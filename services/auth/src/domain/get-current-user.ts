import type { TrustedContext, User } from '@aict/contracts';
import { presentUser } from '../presenters/user.presenter';
import type { AuthDeps } from './auth-deps';
import { userErrors } from './user.errors';

/** `GET /api/user`: the signed-in user with its roles (two reads by `_id`); 401 otherwise. */
export async function getCurrentUser(deps: AuthDeps, ctx: TrustedContext): Promise<User> {
  if (!ctx.uid) throw userErrors.unauthenticated();
  const [user, roles] = await Promise.all([
    deps.users.findById(ctx.uid),
    deps.memberships.rolesOf(ctx.uid),
  ]);
  if (!user) throw userErrors.unauthenticated();
  return presentUser(user, roles);
}
