import type { TrustedContext, UpdateOwnUserBody, User } from '@aict/contracts';
import { presentUser } from '../presenters/user.presenter';
import type { AuthDeps } from './auth-deps';
import { retryOnConflict, withUserLock } from './load-manageable-user';
import { userErrors } from './user.errors';

/**
 * `PATCH /api/user`: the signed-in user's own preferences (the UI language). Reads and
 * writes by `_id` only; no event (nothing another service keeps depends on it).
 */
export async function updateOwnUser(
  deps: AuthDeps,
  ctx: TrustedContext,
  body: UpdateOwnUserBody,
): Promise<User> {
  const userId = ctx.uid;
  if (!userId) throw userErrors.unauthenticated();
  return retryOnConflict(() =>
    withUserLock(deps, userId, async () => {
      const [user, roles] = await Promise.all([
        deps.users.findById(userId),
        deps.memberships.rolesOf(userId),
      ]);
      if (!user) throw userErrors.unauthenticated();
      if (user.language === body.language) return presentUser(user, roles);
      if (!(await deps.users.update(user, { language: body.language }, []))) return undefined;
      return presentUser({ ...user, language: body.language }, roles);
    }),
  );
}
