import type { TrustedContext } from '@aict/contracts';
import type { WorkspaceRoles } from '../data/membership.repository';
import type { UserRecord } from '../data/user.model';
import type { AuthDeps } from './auth-deps';
import { documentKey } from './keyed-lock';
import { assertCanManage, type AdminScope } from './user-access';
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
  assertCanManage(ctx, scope, user, roles);
  return { user, roles };
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
