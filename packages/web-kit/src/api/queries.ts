import type { ContentsFilter } from '../content/content-queries';
import {
  CACHE_GC_MS,
  PROMPTS_REFETCH_MS,
  PROMPTS_STALE_MS,
  QUERY_RETRY,
  QUERY_STALE_MS,
  SETTINGS_KEYS,
} from '@aict/contracts/constants';
import { routeQueryKey, routeUrl, withParams } from './route-client';
import { contentRoutes, promptRoutes } from './routes';

// The ONE place for query keys and query timings (SPEC §9). A key's first element is the URL
// the default query function GETs (SPEC §7); build keys only through `queryKeys`.

export const queryTimings = {
  /** Every query: fresh for 60 s, no polling, refetch on focus and mount, no retries, 5 min gc. */
  defaults: {
    staleTime: QUERY_STALE_MS,
    gcTime: CACHE_GC_MS,
    refetchInterval: false,
    refetchOnWindowFocus: true,
    refetchOnMount: true,
    retry: QUERY_RETRY,
  },
  /** The prompt list polls: refetch every 15 s, stale after 10 s. */
  prompts: { staleTime: PROMPTS_STALE_MS, refetchInterval: PROMPTS_REFETCH_MS },
} as const;

export { withParams };

const id = (value: string | number) => encodeURIComponent(String(value));

export const queryKeys = {
  user: () => ['/api/user'] as const,
  userWorkspaces: () => ['/api/user/workspaces'] as const,
  workspaces: () => ['/api/workspaces'] as const,
  users: () => ['/api/users'] as const,
  userMemberships: (userId: string) => [`/api/users/${id(userId)}/workspaces`] as const,
  prompts: (workspaceId: number, contentType?: 'text' | 'image') =>
    routeQueryKey(promptRoutes.list, undefined, { workspaceId, contentType }),
  defaultPrompt: (workspaceId: number) =>
    [withParams('/api/prompts/default', { workspaceId })] as const,
  /** A prompt's detail; `workspaceId` is left out when no workspace is selected. */
  prompt: (promptId: string, workspaceId?: number | null) =>
    [withParams(`/api/prompts/${id(promptId)}`, { workspaceId })] as const,
  contents: (workspaceId?: number | null) =>
    routeQueryKey(contentRoutes.list, undefined, { workspaceId: workspaceId ?? undefined }),
  content: (contentId: string) => routeQueryKey(contentRoutes.get, { id: contentId }),
  conversation: (contentId: string) => routeQueryKey(contentRoutes.conversation, { id: contentId }),
  /** History pages (an infinite query: the cursor is added per page, not part of the key). */
  contentsPages: (workspaceId: number, filter: ContentsFilter = {}) =>
    [
      routeUrl(contentRoutes.list, undefined, {
        workspaceId,
        type: filter.type,
        q: filter.q || undefined,
        review: filter.review,
        model: filter.model || undefined,
        userId: filter.userId || undefined,
        promptId: filter.promptId || undefined,
        from: filter.from || undefined,
        to: filter.to || undefined,
        limit: filter.limit,
      }),
      'pages',
    ] as const,
  stats: (workspaceId: number) => routeQueryKey(contentRoutes.stats, undefined, { workspaceId }),
  /** The provider key of a workspace, or the global one when no workspace is given. */
  apiKeySetting: (workspaceId?: number | null) =>
    [
      workspaceId
        ? `/api/workspaces/${id(workspaceId)}/settings/${SETTINGS_KEYS.openaiApiKey}`
        : `/api/settings/${SETTINGS_KEYS.openaiApiKey}`,
    ] as const,
  defaultModelSetting: (contentType: 'text' | 'image') =>
    [
      `/api/settings/${contentType === 'text' ? SETTINGS_KEYS.defaultTextModel : SETTINGS_KEYS.defaultImageModel}`,
    ] as const,
  models: (contentType: 'text' | 'image') => [`/api/models/${contentType}`] as const,
};

/**
 * A filter for `queryClient.invalidateQueries` matching every key whose URL is `path`, or
 * starts with `path?` or `path/` (e.g. `urlFilter('/api/prompts')` matches every prompt list
 * and prompt detail).
 */
export function urlFilter(path: string) {
  return {
    predicate: (query: { queryKey: readonly unknown[] }) => {
      const url = query.queryKey[0];
      return (
        typeof url === 'string' &&
        (url === path || url.startsWith(`${path}?`) || url.startsWith(`${path}/`))
      );
    },
  };
}
