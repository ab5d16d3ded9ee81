import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { DefaultPrompt } from '@aict/contracts';
import { apiJson, isApiError, queryKeys } from '@aict/web-kit';

/** SPEC §8: the texts of a failed default-prompt fetch. */
export const NO_DEFAULT_PROMPT = 'No default prompt configured for this workspace';
export const DEFAULT_PROMPT_FAILED = 'Failed to fetch default prompt';

/** The workspace has no default prompt (the fetch answered 404). */
export class NoDefaultPromptError extends Error {
  override readonly name = 'NoDefaultPromptError';
  constructor(cause: unknown) {
    super(NO_DEFAULT_PROMPT, { cause });
  }
}

/** GET /api/prompts/default?workspaceId= (SPEC §7): the default prompt's id and model. */
export async function getDefaultPrompt(workspaceId: number): Promise<DefaultPrompt> {
  try {
    return await apiJson<DefaultPrompt>('GET', queryKeys.defaultPrompt(workspaceId)[0]);
  } catch (cause) {
    if (isApiError(cause, 404)) throw new NoDefaultPromptError(cause);
    throw new Error(DEFAULT_PROMPT_FAILED, { cause });
  }
}

const options = (workspaceId: number) => ({
  queryKey: queryKeys.defaultPrompt(workspaceId),
  queryFn: () => getDefaultPrompt(workspaceId),
  retry: false,
});

/** The default prompt, loaded with the screen (not retried). */
export function useDefaultPrompt(workspaceId: number | null) {
  return useQuery({ ...options(workspaceId ?? 0), enabled: workspaceId !== null });
}

/** The default prompt at send time: the cached one, or a fresh fetch (which may throw). */
export function fetchDefaultPrompt(queryClient: QueryClient, workspaceId: number) {
  return queryClient.fetchQuery(options(workspaceId));
}
