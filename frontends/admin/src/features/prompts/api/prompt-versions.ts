import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PROMPT_ROUTES } from '@aict/contracts';
import { apiCall, routeQueryKey } from '@aict/web-kit';
import { promptChanged } from './prompt-cache';

const versionsKey = (id: string, workspaceId: number | null) =>
  routeQueryKey(PROMPT_ROUTES.versions, { id }, { workspaceId: workspaceId ?? undefined });

/** GET /api/prompts/{id}/versions (issue 18): admins of the prompt's workspace only. */
export function usePromptVersions(id: string, workspaceId: number | null) {
  return useQuery({
    queryKey: versionsKey(id, workspaceId),
    queryFn: () =>
      apiCall(PROMPT_ROUTES.versions, {
        params: { id },
        query: { workspaceId: workspaceId ?? undefined },
      }),
  });
}

export interface RestoreInput {
  id: string;
  version: number;
  /** The version shown as current: the server refuses (409) when the prompt moved on. */
  currentVersion: number;
  workspaceId: number | null;
}

/** POST /api/prompts/{id}/versions/{version}/restore: the prompt as restored. */
export function useRestorePromptVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version, currentVersion, workspaceId }: RestoreInput) =>
      apiCall(PROMPT_ROUTES.restoreVersion, {
        params: { id, version },
        body: { currentVersion, workspaceId },
      }),
    onSuccess: (prompt) => promptChanged(queryClient, prompt),
    // A refusal (409) means the list is stale: show the newer versions.
    onError: (_error, { id, workspaceId }) =>
      queryClient.invalidateQueries({ queryKey: versionsKey(id, workspaceId) }),
  });
}
