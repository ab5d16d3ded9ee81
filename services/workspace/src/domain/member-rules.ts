import type { Role, TrustedContext } from '@aict/contracts';
import { roleIn } from '@aict/service-kit';
import type { DomainDeps } from './domain-deps';
import { setMembership, type MembershipChange } from './set-membership';
import { appError } from './workspace.errors';

// The rules of membership administration beyond "admin of the workspace":
// - a workspace never loses its last admin (role change, removal, or a POST that sets
//   'user' on an admin): 409 MEMBERSHIP.LAST_ADMIN. A deleted user's memberships go
//   regardless (the super admin, who may administer every workspace, deleted them);
// - a workspace admin adds only users they administer: members of at least one workspace,
//   all of which the admin administers (the rule of the auth service's user
//   administration). A user in no workspace is nobody's to add but a super admin's, so
//   nobody is pulled into a workspace without an administrator's say.

/**
 * One decision about a workspace's admins at a time in this process: two admins demoting
 * each other at once cannot both see "another admin is left". (Replicas of this service
 * could still race; the window is one request long.)
 */
const adminsKey = (workspaceId: number) => `workspace-admins:${workspaceId}`;

/**
 * Sets `userId`'s role in the workspace (null: removes them), refusing to take away the
 * workspace's last admin. An administrator's change (`actor`) is audited.
 */
export async function setRoleKeepingAnAdmin(
  d: DomainDeps,
  workspaceId: number,
  userId: string,
  role: Role | null,
  actor?: TrustedContext,
): Promise<MembershipChange> {
  const assign = () => setMembership(d, workspaceId, userId, role, actor);
  if (role === 'admin') return assign();
  return d.locks.run(adminsKey(workspaceId), async () => {
    const current = await d.memberships.get(workspaceId, userId);
    if (current?.role === 'admin' && !(await anotherAdmin(d, workspaceId, userId)))
      throw appError('MEMBERSHIP.LAST_ADMIN');
    return assign();
  });
}

/** Any admin of the workspace other than `userId` (a scan, only when an admin steps down). */
async function anotherAdmin(d: DomainDeps, workspaceId: number, userId: string) {
  const memberships = await d.memberships.listByWorkspace(workspaceId);
  return memberships.some((m) => m.role === 'admin' && m.userId !== userId);
}

/**
 * 403 unless the caller may add `userId` to `workspaceId`: a super admin anyone; a
 * workspace admin a member of the workspace already, or a user all of whose workspaces
 * (at least one) they administer.
 */
export async function assertMayAdd(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  userId: string,
): Promise<void> {
  if (ctx.sa) return;
  const index = await d.memberships.readIndex(userId);
  const workspaces = Object.entries(index?.ws ?? {})
    .filter(([, entry]) => entry.role !== null)
    .map(([id]) => Number(id));
  if (workspaces.includes(workspaceId)) return;
  const administersAll =
    workspaces.length > 0 && workspaces.every((id) => roleIn(ctx, id) === 'admin');
  if (!administersAll) throw appError('MEMBERSHIP.USER_NOT_MANAGEABLE');
}
