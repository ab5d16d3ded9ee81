import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CreateUserBody, type User } from '@aict/contracts';
import { apiJson, queryKeys } from '@aict/web-kit';

export { CreateUserBody };

/**
 * POST /api/users. The workspace and role (if any) go along so that the server checks the
 * caller may assign them; the assignment itself is a second call (POST
 * /api/workspaces/{id}/users), made by the caller.
 */
export function createUser(body: CreateUserBody): Promise<User> {
  return apiJson<User>('POST', '/api/users', body);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.users() }),
  });
}
