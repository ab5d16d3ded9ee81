import { useQuery } from '@tanstack/react-query';
import type { PromptView } from '@aict/contracts';
import { apiJson, isApiError, queryKeys } from '@aict/web-kit';

/** The prompt does not exist, or the caller may not see it (SPEC §2 'Prompt Not Found'). */
export class PromptNotFoundError extends Error {
  override readonly name = 'PromptNotFoundError';
  constructor() {
    super('Prompt Not Found');
  }
}

/**
 * GET /api/prompts/{id}?workspaceId= (SPEC §7): the full prompt for admins, the summary (no
 * template) for others. 404 and 403 become PromptNotFoundError; any other failure
 * 'Failed to fetch prompt details' (SPEC §8).
 */
export async function getPrompt(
  promptId: string,
  workspaceId: number | null | undefined,
): Promise<PromptView> {
  try {
    return await apiJson<PromptView>('GET', queryKeys.prompt(promptId, workspaceId)[0]);
  } catch (cause) {
    if (isApiError(cause, 404) || isApiError(cause, 403)) throw new PromptNotFoundError();
    throw new Error('Failed to fetch prompt details', { cause });
  }
}

export function usePrompt(promptId: string, workspaceId: number | null, enabled = true) {
  return useQuery({
    queryKey: queryKeys.prompt(promptId, workspaceId),
    queryFn: () => getPrompt(promptId, workspaceId),
    enabled,
  });
}
