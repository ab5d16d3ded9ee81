import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, queryKeys } from '@aict/web-kit';

/** DELETE /api/users/{id}. */
export async function deleteUser(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/users/${encodeURIComponent(id)}`);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users() }),
  });
}
