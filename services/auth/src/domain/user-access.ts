import type { TrustedContext } from '@aict/contracts';
import { roleIn } from '@aict/service-kit';
import type { WorkspaceRoles } from '../data/membership.repository';
import type { UserRecord } from '../data/user.model';
import { userErrors } from './user.errors';

// Who may administer users (SPEC §6 and the Users tab of §2):
// - a super administrator: every user;
// - an admin of the current workspace (the context's `ws`): the users of that workspace who
//   are not super administrators and belong to no workspace the admin does not administer;
//   they see only that workspace's assignments;
// - anybody else: 403.

export type AdminScope = { kind: 'all' } | { kind: 'workspace'; workspaceId: number };

/** The caller's reach in user administration; 403 for anyone who is not an administrator. */
export function adminScope(ctx: TrustedContext): AdminScope {
  if (ctx.sa) return { kind: 'all' };
  if (ctx.ws !== null && roleIn(ctx, ctx.ws) === 'admin')
    return { kind: 'workspace', workspaceId: ctx.ws };
  throw userErrors.forbidden();
}

/** Whether the caller may change or delete `target`, whose memberships are `targetRoles`. */
export function canManage(
  ctx: TrustedContext,
  scope: AdminScope,
  target: UserRecord,
  targetRoles: WorkspaceRoles,
): boolean {
  if (scope.kind === 'all') return true;
  const inScope = targetRoles[String(scope.workspaceId)] !== undefined;
  const administersAll = Object.keys(targetRoles).every(
    (workspaceId) => roleIn(ctx, Number(workspaceId)) === 'admin',
  );
  return !target.isSuperAdmin && inScope && administersAll;
}

/** 403 unless the caller may change or delete `target` (see canManage). */
export function assertCanManage(
  ctx: TrustedContext,
  scope: AdminScope,
  target: UserRecord,
  targetRoles: WorkspaceRoles,
): void {
  if (!canManage(ctx, scope, target, targetRoles)) throw userErrors.forbidden();
}

/** The assignments the caller may see: all of them, or the current workspace's only. */
export function visibleRoles(scope: AdminScope, roles: WorkspaceRoles): WorkspaceRoles {
  if (scope.kind === 'all') return roles;
  const key = String(scope.workspaceId);
  const role = roles[key];
  return role ? { [key]: role } : {};
}
