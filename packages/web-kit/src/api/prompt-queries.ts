import { useQuery } from '@tanstack/react-query';
import type { ContentType, PromptsResponse } from '@aict/contracts';
import { queryKeys, queryTimings } from './queries';
import { apiCall } from './route-client';
import { promptRoutes } from './routes';

/**
 * GET /api/prompts?workspaceId=&contentType= (SPEC §7): the prompts of the workspace and the
 * public ones a member may run, as summaries (name, category, model, variables). Throws
 * 'Failed to fetch prompts' on a non-OK answer (SPEC §8), the ApiError as its cause.
 */
export async function getPrompts(
  workspaceId: number,
  contentType?: ContentType,
): Promise<PromptsResponse> {
  try {
    return await apiCall(promptRoutes.list, { query: { workspaceId, contentType } });
  } catch (cause) {
    throw new Error('Failed to fetch prompts', { cause });
  }
}

/** The prompt list polls (every 15 s, stale after 10 s) and waits until a workspace is selected. */
export function usePrompts(workspaceId: number | null, contentType?: ContentType) {
  return useQuery({
    queryKey: queryKeys.prompts(workspaceId ?? 0, contentType),
    queryFn: () => getPrompts(workspaceId!, contentType),
    enabled: workspaceId !== null,
    ...queryTimings.prompts,
  });
}
