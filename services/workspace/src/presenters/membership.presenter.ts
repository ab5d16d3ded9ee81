import type { Membership, Role, UserWorkspaceItem } from '@aict/contracts';

export function presentMembership(workspaceId: number, userId: string, role: Role): Membership {
  return { workspaceId, userId, role };
}

export function presentUserWorkspace(
  workspaceId: number,
  userId: string,
  role: Role,
  workspaceName: string,
): UserWorkspaceItem {
  return { workspaceId, userId, role, workspaceName };
}
