import { useQuery } from '@tanstack/react-query';
import { CONTENT_ROUTES } from '@aict/contracts';
import { apiCall, routeQueryKey } from '@aict/web-kit';

/**
 * GET /api/prompts/{id}/results (issue 18): the template's runs, approvals and cost per
 * version and per user; admins of the prompt's workspace only. Refreshed with the versions
 * when the prompt changes (prompt-cache.ts).
 */
export function usePromptResults(id: string, workspaceId: number | null) {
  const query = { workspaceId: workspaceId ?? undefined };
  return useQuery({
    queryKey: routeQueryKey(CONTENT_ROUTES.promptResults, { id }, query),
    queryFn: () => apiCall(CONTENT_ROUTES.promptResults, { params: { id }, query }),
  });
}
