import type { QueryClient } from '@tanstack/react-query';
import type { PromptView } from '@aict/contracts';
import { urlFilter } from '@aict/web-kit';

// What a prompt write does to the cache: the answer replaces the prompt's cached detail (in
// whichever workspace it was read), and every prompt list (and the default prompt, which a
// write may change) is fetched again.

/** Stores `prompt` as its cached detail and refreshes the lists, its versions and results. */
export function promptChanged(queryClient: QueryClient, prompt: PromptView): Promise<void> {
  // The detail only (`/api/prompts/{id}` with any query), not its sub-resources (versions).
  const detail = promptPath(prompt.id);
  queryClient.setQueriesData(
    {
      predicate: ({ queryKey }) =>
        typeof queryKey[0] === 'string' &&
        (queryKey[0] === detail || queryKey[0].startsWith(`${detail}?`)),
    },
    prompt,
  );
  void queryClient.invalidateQueries(urlFilter(promptPath(prompt.id, '/versions')));
  // A write makes a new version: the results list it as the current one.
  void queryClient.invalidateQueries(urlFilter(promptPath(prompt.id, '/results')));
  return listsChanged(queryClient);
}

/** Drops the prompt's detail and refreshes the lists. */
export function promptRemoved(queryClient: QueryClient, promptId: string): Promise<void> {
  queryClient.removeQueries(urlFilter(promptPath(promptId)));
  return listsChanged(queryClient);
}

/** Every prompt list (any workspace, any content type) and the default prompt. */
function listsChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey }) =>
      typeof queryKey[0] === 'string' &&
      (queryKey[0].startsWith('/api/prompts?') || queryKey[0].startsWith('/api/prompts/default')),
  });
}

/** The path of a prompt and of its sub-resources. */
export const promptPath = (promptId: string, rest = '') =>
  `/api/prompts/${encodeURIComponent(promptId)}${rest}`;
