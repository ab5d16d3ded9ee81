import type { Role, TrustedContext } from '@aict/contracts';
import { AppError, assertAdmin } from '@aict/service-kit';
import type { DomainDeps } from './domain-deps';

/** One of a user's assignments, with the workspace's name. */
export interface UserWorkspaceEntry {
  workspaceId: number;
  role: Role;
  workspaceName: string;
}

/**
 * A user's workspace assignments (Users tab, Edit User). Super administrators see all of
 * them; an admin of the workspace in view (`workspaceId`, authorised by the route) sees only
 * that workspace's assignment.
 */
export async function listUserMemberships(
  d: DomainDeps,
  ctx: TrustedContext,
  userId: string,
  workspaceId: number | null,
): Promise<UserWorkspaceEntry[]> {
  let only: number | null = null;
  if (!ctx.sa) {
    if (workspaceId === null) throw AppError.forbidden();
    assertAdmin(ctx, workspaceId);
    only = workspaceId;
  }
  const index = await d.memberships.readIndex(userId);
  const entries = Object.entries(index?.ws ?? {})
    .map(([id, entry]) => ({ workspaceId: Number(id), role: entry.role }))
    .filter((e) => e.role !== null && (only === null || e.workspaceId === only))
    .sort((a, b) => a.workspaceId - b.workspaceId);
  const workspaces = await d.workspaces.findByIds(entries.map((e) => e.workspaceId));
  const names = new Map(workspaces.map((w) => [w._id, w.name]));
  return entries
    .filter((e) => names.has(e.workspaceId))
    .map((e) => ({
      workspaceId: e.workspaceId,
      role: e.role!,
      workspaceName: names.get(e.workspaceId)!,
    }));
}
