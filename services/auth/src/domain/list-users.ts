import type { TrustedContext } from '@aict/contracts';
import type { AuthDeps } from './auth-deps';
import { adminScope } from './user-access';
import type { UserView } from './user-view';

/**
 * `GET /api/users`: a super admin sees every user with all their assignments; an admin of
 * the current workspace sees the members of that workspace with that workspace's chip only.
 */
export async function listUsers(deps: AuthDeps, ctx: TrustedContext): Promise<UserView[]> {
  const scope = adminScope(ctx);
  if (scope.kind === 'all') {
    const [users, roles] = await Promise.all([deps.users.findAll(), deps.memberships.allRoles()]);
    return users.map((user) => ({ user, roles: roles.get(user._id) ?? {} }));
  }
  const members = await deps.memberships.membersOf(scope.workspaceId);
  const roleOf = new Map(members.map((m) => [m.userId, m.role]));
  const users = await deps.users.findByIds([...roleOf.keys()]);
  const key = String(scope.workspaceId);
  return users.map((user) => ({ user, roles: { [key]: roleOf.get(user._id)! } }));
}
