import type { TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { auditEnvelope } from './audit-acts';
import type { AuthDeps } from './auth-deps';
import { loadManageableUser, retryOnConflict, withUserLock } from './load-manageable-user';
import { hashPassword } from './passwords';
import { adminScope } from './user-access';

/** `POST /api/users/:id/reset-password`: a new hash, and every session of the user ends. */
export async function resetPassword(
  deps: AuthDeps,
  ctx: TrustedContext,
  userId: string,
  password: string,
): Promise<Envelope[]> {
  const scope = adminScope(ctx);
  await loadManageableUser(deps, ctx, scope, userId);
  const passwordHash = await hashPassword(password);
  return retryOnConflict(() =>
    withUserLock(deps, userId, async () => {
      const { user } = await loadManageableUser(deps, ctx, scope, userId);
      const tokenVersion = user.tokenVersion + 1;
      const events: Envelope[] = [
        deps.events.envelope('user.sessions-revoked', { userId, tokenVersion }),
        auditEnvelope(deps, ctx, {
          action: 'user.password-reset',
          targetType: 'user',
          targetId: userId,
          after: { username: user.username, passwordChanged: true },
        }),
      ];
      if (!(await deps.users.update(user, { passwordHash, tokenVersion }, events)))
        return undefined;
      deps.events.publishSoon(deps.users.model, userId);
      return events;
    }),
  );
}
