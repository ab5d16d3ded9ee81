import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TOKEN_ROUTES, type CreateApiTokenBody } from '@aict/contracts';
import { apiCall, routeQueryKey } from '@aict/web-kit';

const listKey = () => routeQueryKey(TOKEN_ROUTES.list);

/** GET /api/tokens: the signed-in user's own tokens (never their secrets). */
export function useApiTokens() {
  return useQuery({ queryKey: listKey(), queryFn: () => apiCall(TOKEN_ROUTES.list) });
}

/** POST /api/tokens: the answer holds the secret, shown once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiTokenBody) => apiCall(TOKEN_ROUTES.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey() }),
  });
}

/** DELETE /api/tokens/{id}. */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(TOKEN_ROUTES.revoke, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey() }),
  });
}
