import { useQuery } from '@tanstack/react-query';
import type { UserWorkspacesResponse } from '@aict/contracts';
import { apiJson, queryKeys } from '@aict/web-kit';

/**
 * GET /api/users/{id}/workspaces (with X-Workspace-ID): the user's assignments; a workspace
 * admin gets only the current workspace's.
 */
export function getUserWorkspaces(userId: string): Promise<UserWorkspacesResponse> {
  return apiJson<UserWorkspacesResponse>('GET', queryKeys.userMemberships(userId)[0]);
}

export function useUserWorkspaces(userId: string | null) {
  return useQuery({
    queryKey: queryKeys.userMemberships(userId ?? ''),
    queryFn: () => getUserWorkspaces(userId!),
    enabled: userId !== null,
  });
}
