import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UpdateUserBody, type User } from '@aict/contracts';
import { apiJson, queryKeys, urlFilter } from '@aict/web-kit';

export { UpdateUserBody };

/** PUT /api/users/{id} with { username, email }. */
export function updateUser({ id, ...body }: UpdateUserBody & { id: string }): Promise<User> {
  return apiJson<User>('PUT', `/api/users/${encodeURIComponent(id)}`, body);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries(urlFilter('/api/users')),
        // one's own name and e-mail show in the sidebar
        queryClient.invalidateQueries({ queryKey: queryKeys.user() }),
      ]),
  });
}
