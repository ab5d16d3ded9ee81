import { useQuery } from '@tanstack/react-query';
import { BRAND_VOICE_ROUTES } from '@aict/contracts';
import { apiCall, routeQueryKey } from '@aict/web-kit';

/** GET /api/workspaces/{id}/brand-voice: what the prompt preview adds before a prompt. */
export function useBrandVoice(workspaceId: number | null) {
  return useQuery({
    queryKey: routeQueryKey(BRAND_VOICE_ROUTES.get, { id: workspaceId ?? 0 }),
    queryFn: () =>
      apiCall(
        BRAND_VOICE_ROUTES.get,
        { params: { id: workspaceId! } },
        { headers: { 'x-workspace-id': String(workspaceId) } },
      ),
    enabled: workspaceId !== null,
  });
}
