import type { TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import type { AuthDeps } from './auth-deps';
import { releaseClaims } from './create-account';
import { loadManageableUser, retryOnConflict, withUserLock } from './load-manageable-user';
import { adminScope } from './user-access';
import { userErrors } from './user.errors';

/**
 * `DELETE /api/users/:id`: nobody deletes themself; the user is tombstoned with
 * `user.sessions-revoked` and `user.deleted` (the workspace service drops the memberships),
 * then the username and e-mail are free again.
 */
export async function deleteUser(
  deps: AuthDeps,
  ctx: TrustedContext,
  userId: string,
): Promise<Envelope[]> {
  const scope = adminScope(ctx);
  if (userId === ctx.uid) throw userErrors.cannotDeleteSelf();
  return retryOnConflict(() =>
    withUserLock(deps, userId, async () => {
      const { user } = await loadManageableUser(deps, ctx, scope, userId);
      const events: Envelope[] = [
        deps.events.envelope('user.sessions-revoked', {
          userId,
          tokenVersion: user.tokenVersion + 1,
        }),
        deps.events.envelope('user.deleted', { userId }),
      ];
      if (!(await deps.users.markDeleted(user, events))) return undefined;
      deps.events.publishSoon(deps.users.model, userId);
      await releaseClaims(
        deps,
        [
          ['username', user.username],
          ['email', user.email],
        ],
        userId,
      );
      return events;
    }),
  );
}
