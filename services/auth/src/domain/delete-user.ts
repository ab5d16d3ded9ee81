import type { TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import type { UserRecord } from '../data/user.model';
import { auditEnvelope, userSummary } from './audit-acts';
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
        auditEnvelope(deps, ctx, {
          action: 'user.deleted',
          targetType: 'user',
          targetId: userId,
          before: userSummary(user),
        }),
      ];
      return (await tombstoneUser(deps, user, events)) ? events : undefined;
    }),
  );
}

/**
 * Marks the user deleted with `events` (outbox), then frees the username and e-mail; false,
 * with nothing freed, when the user changed meanwhile (the caller reloads and tries again).
 * The caller holds the user's lock.
 */
export async function tombstoneUser(
  deps: AuthDeps,
  user: UserRecord,
  events: Envelope[],
): Promise<boolean> {
  if (!(await deps.users.markDeleted(user, events))) return false;
  deps.events.publishSoon(deps.users.model, user._id);
  await releaseClaims(
    deps,
    [
      ['username', user.username],
      ['email', user.email],
    ],
    user._id,
  );
  return true;
}
