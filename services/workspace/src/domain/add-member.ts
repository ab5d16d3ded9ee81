import type { AddMemberBody, Role, TrustedContext } from '@aict/contracts';
import { authorizeAdmin } from './authorize';
import type { DomainDeps } from './domain-deps';
import { assertMayAdd, setRoleKeepingAnAdmin } from './member-rules';
import type { MembershipChange } from './set-membership';
import { userNotFound, workspaceNotFound } from './workspace.errors';

/**
 * Adds a user to a workspace with a role; an existing member gets the role. Super
 * administrators, and admins of that workspace only, who add only users they administer
 * (member-rules.ts); the last admin is not demoted.
 */
export async function addMember(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  body: AddMemberBody,
): Promise<MembershipChange> {
  await authorizeAdmin(d, ctx, workspaceId);
  await assertMayAdd(d, ctx, workspaceId, body.userId);
  return assignMember(d, workspaceId, body.userId, body.role, ctx);
}

/** The assignment itself (also the `workspace.add-member` request, authorised by its caller). */
export async function assignMember(
  d: DomainDeps,
  workspaceId: number,
  userId: string,
  role: Role,
  actor?: TrustedContext,
): Promise<MembershipChange> {
  if (await d.memberships.isUserDeleted(userId)) throw userNotFound();
  const change = await setRoleKeepingAnAdmin(d, workspaceId, userId, role, actor);
  // Undone because the user or the workspace was deleted meanwhile (both announced).
  if (change.role !== role) {
    throw (await d.memberships.isUserDeleted(userId)) ? userNotFound() : workspaceNotFound();
  }
  return change;
}
