import type { TrustedContext } from '@aict/contracts';
import { authorizeAdmin } from './authorize';
import type { DomainDeps } from './domain-deps';
import { setMembership, type MembershipChange } from './set-membership';
import { membershipNotFound } from './workspace.errors';

/** Removes a user from a workspace. Super administrators, and admins of that workspace only. */
export async function removeMember(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  userId: string,
): Promise<MembershipChange> {
  await authorizeAdmin(d, ctx, workspaceId);
  const current = await d.memberships.get(workspaceId, userId);
  if (!current?.role) throw membershipNotFound();
  return setMembership(d, workspaceId, userId, null);
}
