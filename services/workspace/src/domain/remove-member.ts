import type { TrustedContext } from '@aict/contracts';
import { authorizeAdmin } from './authorize';
import type { DomainDeps } from './domain-deps';
import { setRoleKeepingAnAdmin } from './member-rules';
import type { MembershipChange } from './set-membership';
import { membershipNotFound } from './workspace.errors';

/** Removes a user from a workspace. Super administrators, and admins of that workspace
 * only; a workspace's last admin stays (409 MEMBERSHIP.LAST_ADMIN). */
export async function removeMember(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  userId: string,
): Promise<MembershipChange> {
  await authorizeAdmin(d, ctx, workspaceId);
  const current = await d.memberships.get(workspaceId, userId);
  if (!current?.role) throw membershipNotFound();
  return setRoleKeepingAnAdmin(d, workspaceId, userId, null, ctx);
}
