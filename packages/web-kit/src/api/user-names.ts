import { useQuery } from '@tanstack/react-query';
import type { UsersResponse } from '@aict/contracts';
import { apiJson } from './http';
import { queryKeys } from './queries';

/**
 * One function for every render: TanStack Query runs a new `select` again, and a new Map on
 * each render is a changed result (a component that renders again for it loops).
 */
function namesById(users: UsersResponse): Map<string, string> {
  return new Map(users.map((user) => [user.id, user.username]));
}

/**
 * The names of the users an admin may know (GET /api/users: the members of the current
 * workspace, or everyone for a super admin), by id: to name who made a version or spent a
 * budget. Off for callers who may not list users (`enabled`); an id it lacks stays unnamed.
 */
export function useUserNames({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.users(),
    queryFn: () => apiJson<UsersResponse>('GET', queryKeys.users()[0]),
    select: namesById,
    retry: false,
    enabled,
  });
}
