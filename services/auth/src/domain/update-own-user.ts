import type { TrustedContext, UpdateOwnUserBody } from '@aict/contracts';
import type { AuthDeps } from './auth-deps';
import { retryOnConflict, withUserLock } from './load-manageable-user';
import { userErrors } from './user.errors';
import type { UserView } from './user-view';

/**
 * `PATCH /api/user`: the signed-in user's own preferences (the UI language). Reads and
 * writes by `_id` only; no event (nothing another service keeps depends on it).
 */
export async function updateOwnUser(
  deps: AuthDeps,
  ctx: TrustedContext,
  body: UpdateOwnUserBody,
): Promise<UserView> {
  const userId = ctx.uid;
  if (!userId) throw userErrors.unauthenticated();
  return retryOnConflict(() =>
    withUserLock(deps, userId, async () => {
      const [user, roles] = await Promise.all([
        deps.users.findById(userId),
        deps.memberships.rolesOf(userId),
      ]);
      if (!user) throw userErrors.unauthenticated();
      if (user.language === body.language) return { user, roles };
      if (!(await deps.users.update(user, { language: body.language }, []))) return undefined;
      return { user: { ...user, language: body.language }, roles };
    }),
  );
}
