import { useQuery } from '@tanstack/react-query';
import type { ContentType, PromptsResponse } from '@aict/contracts';
import { apiJson, queryKeys, queryTimings } from '@aict/web-kit';

/**
 * GET /api/prompts?workspaceId=&contentType= (SPEC §7): the prompts a member may run, as
 * summaries (name, category, model, variables). 'Failed to fetch prompts' on a non-OK answer.
 */
export async function getPrompts(
  workspaceId: number,
  contentType?: ContentType,
): Promise<PromptsResponse> {
  try {
    return await apiJson<PromptsResponse>('GET', queryKeys.prompts(workspaceId, contentType)[0]);
  } catch (cause) {
    throw new Error('Failed to fetch prompts', { cause });
  }
}

/** Polls every 15 s (stale after 10 s); idle until a workspace is selected. */
export function usePrompts(workspaceId: number | null, contentType?: ContentType) {
  return useQuery({
    queryKey: queryKeys.prompts(workspaceId ?? 0, contentType),
    queryFn: () => getPrompts(workspaceId!, contentType),
    enabled: workspaceId !== null,
    ...queryTimings.prompts,
  });
}
