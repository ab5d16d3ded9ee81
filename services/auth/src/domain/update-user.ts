import type { TrustedContext, UpdateUserBody } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import type { ClaimKind } from '../data/claim.model';
import { claimKey } from '../data/claim.repository';
import type { UserChanges } from '../data/user.repository';
import { auditEnvelope, changedFields, userSummary } from './audit-acts';
import type { AuthDeps } from './auth-deps';
import { claimOrFail, releaseClaims } from './create-account';
import { loadManageableUser, retryOnConflict, withUserLock } from './load-manageable-user';
import { adminScope, visibleRoles } from './user-access';
import { userErrors } from './user.errors';
import { userSnapshot, type UserView } from './user-view';

/**
 * `PUT /api/users/:id`: username and e-mail (new values claimed first, old ones released
 * after the write); a super admin may also change the super-admin flag of someone else,
 * which ends that user's sessions (`user.sessions-revoked`).
 */
export async function updateUser(
  deps: AuthDeps,
  ctx: TrustedContext,
  userId: string,
  body: UpdateUserBody,
): Promise<UserView & { events: Envelope[] }> {
  const scope = adminScope(ctx);
  return retryOnConflict(() =>
    withUserLock(deps, userId, async () => {
      const { user, roles } = await loadManageableUser(deps, ctx, scope, userId);
      const flagChanges =
        body.isSuperAdmin !== undefined && body.isSuperAdmin !== user.isSuperAdmin;
      if (flagChanges && !ctx.sa) throw userErrors.forbidden();
      if (flagChanges && userId === ctx.uid) throw userErrors.cannotChangeOwnSuperAdmin();

      const changes: UserChanges = {};
      if (body.username !== user.username) changes.username = body.username;
      if (body.email !== user.email) changes.email = body.email;
      if (flagChanges) {
        changes.isSuperAdmin = body.isSuperAdmin;
        changes.tokenVersion = user.tokenVersion + 1;
      }
      const shown = visibleRoles(scope, roles);
      if (Object.keys(changes).length === 0) return { user, roles: shown, events: [] };

      const replaced: Array<[ClaimKind, string]> = [];
      const claimed: Array<[ClaimKind, string]> = [];
      try {
        for (const kind of ['username', 'email'] as const) {
          const next = changes[kind];
          if (next === undefined || claimKey(next) === claimKey(user[kind])) continue;
          await claimOrFail(deps, kind, next, userId);
          claimed.push([kind, next]);
          replaced.push([kind, user[kind]]);
        }
      } catch (err) {
        await releaseClaims(deps, claimed, userId);
        throw err;
      }

      const updated = { ...user, ...changes };
      const events: Envelope[] = [
        deps.events.envelope('user.updated', userSnapshot(updated)),
        auditEnvelope(deps, ctx, {
          action: 'user.updated',
          targetType: 'user',
          targetId: userId,
          ...changedFields(userSummary(user), userSummary(updated)),
        }),
      ];
      if (flagChanges)
        events.push(
          deps.events.envelope('user.sessions-revoked', {
            userId,
            tokenVersion: updated.tokenVersion,
          }),
        );
      if (!(await deps.users.update(user, changes, events))) {
        await releaseClaims(deps, claimed, userId);
        return undefined;
      }
      deps.events.publishSoon(deps.users.model, userId);
      await releaseClaims(deps, replaced, userId);
      return { user: updated, roles: shown, events };
    }),
  );
}
