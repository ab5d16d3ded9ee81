import type { TrustedContext } from '@aict/contracts';
import type { WorkspaceRoles } from '../data/membership.repository';
import type { UserRecord } from '../data/user.model';
import type { AuthDeps } from './auth-deps';
import { documentKey } from './keyed-lock';
import { assertCanManage, canManage, type AdminScope } from './user-access';
import { userErrors } from './user.errors';

/** The target of a change: 404 when it does not exist, 403 when the caller may not touch it. */
export async function loadManageableUser(
  deps: AuthDeps,
  ctx: TrustedContext,
  scope: AdminScope,
  userId: string,
): Promise<{ user: UserRecord; roles: WorkspaceRoles }> {
  const [user, roles] = await Promise.all([
    deps.users.findById(userId),
    deps.memberships.rolesOf(userId),
  ]);
  if (!user) throw userErrors.notFound();
  if (scope.kind === 'all' || canManage(ctx, scope, user, roles)) return { user, roles };
  // The read model follows the workspace service's events, a moment behind: a user added
  // to the admin's workspace a moment ago is not in it yet. Ask the owner before refusing.
  const current = await currentRoles(deps, userId);
  assertCanManage(ctx, scope, user, current ?? roles);
  return { user, roles: current ?? roles };
}

/** The user's roles from the workspace service; null when it does not answer. */
async function currentRoles(deps: AuthDeps, userId: string): Promise<WorkspaceRoles | null> {
  try {
    const { memberships } = await deps.workspace.userMemberships(userId);
    return Object.fromEntries(memberships.map((m) => [String(m.workspaceId), m.role]));
  } catch (err) {
    deps.logger.warn({ err, userId }, 'could not ask the workspace service for memberships');
    return null;
  }
}

/** Runs `task` alone among the writes of this user in this process (see keyed-lock.ts). */
export function withUserLock<T>(deps: AuthDeps, userId: string, task: () => Promise<T>) {
  return deps.locks.run(documentKey('users', userId), task);
}

/** Tries a compare-and-set change a few times when a concurrent change got in first. */
export async function retryOnConflict<T>(attempt: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 3; i++) {
    const result = await attempt();
    if (result !== undefined) return result;
  }
  throw userErrors.changedMeanwhile();
}
