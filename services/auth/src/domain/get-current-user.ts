import type { TrustedContext } from '@aict/contracts';
import type { AuthDeps } from './auth-deps';
import { userErrors } from './user.errors';
import type { UserView } from './user-view';

/** `GET /api/user`: the signed-in user with its roles (two reads by `_id`); 401 otherwise. */
export async function getCurrentUser(deps: AuthDeps, ctx: TrustedContext): Promise<UserView> {
  if (!ctx.uid) throw userErrors.unauthenticated();
  const [user, roles] = await Promise.all([
    deps.users.findById(ctx.uid),
    deps.memberships.rolesOf(ctx.uid),
  ]);
  if (!user) throw userErrors.unauthenticated();
  return { user, roles };
}
