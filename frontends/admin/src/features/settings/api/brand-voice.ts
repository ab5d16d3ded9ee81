import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BRAND_VOICE_ROUTES, type BrandVoiceBody } from '@aict/contracts';
import { apiCall, routeQueryKey } from '@aict/web-kit';

/** The workspace in view names itself too (the gateway authorises by it). */
const inWorkspace = (workspaceId: number) => ({
  headers: { 'x-workspace-id': String(workspaceId) },
});

/** GET /api/workspaces/{id}/brand-voice (issue 18): empty fields when none is set. */
export function useBrandVoice(workspaceId: number) {
  return useQuery({
    queryKey: routeQueryKey(BRAND_VOICE_ROUTES.get, { id: workspaceId }),
    queryFn: () =>
      apiCall(BRAND_VOICE_ROUTES.get, { params: { id: workspaceId } }, inWorkspace(workspaceId)),
  });
}

/** PUT …/brand-voice: replaces it (all fields empty clears it). */
export function useUpdateBrandVoice(workspaceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BrandVoiceBody) =>
      apiCall(
        BRAND_VOICE_ROUTES.put,
        { params: { id: workspaceId }, body },
        inWorkspace(workspaceId),
      ),
    onSuccess: (saved) =>
      queryClient.setQueryData(routeQueryKey(BRAND_VOICE_ROUTES.get, { id: workspaceId }), saved),
  });
}
