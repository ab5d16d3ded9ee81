import { useQuery } from '@tanstack/react-query';
import type { UsersResponse } from '@aict/contracts';
import { apiJson, queryKeys } from '@aict/web-kit';

/**
 * GET /api/users (sent with X-Workspace-ID): a super admin gets every user with all their
 * workspace roles; a workspace admin the members of the current workspace, with its role only.
 */
export function getUsers(): Promise<UsersResponse> {
  return apiJson<UsersResponse>('GET', queryKeys.users()[0]);
}

export function useUsers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: queryKeys.users(), queryFn: getUsers, enabled });
}
