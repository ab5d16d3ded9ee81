import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import type {
  ContentItem,
  ContentsPage,
  ContentType,
  ConversationResponse,
  ReviewAction,
  ReviewState,
  StatsResponse,
} from '@aict/contracts';
import { getQueryFn } from '../api/http';
import { queryKeys, urlFilter } from '../api/queries';
import { apiCall } from '../api/route-client';
import { contentRoutes } from '../api/routes';
import { useWorkspace } from '../session/workspace-provider';

// The content routes (packages/contracts/src/http/contents.ts) as TanStack Query hooks. Every
// list and count is scoped to the current workspace and waits until one is selected (SPEC §4).

export interface ContentsFilter {
  type?: ContentType;
  /** Search in the title (and the text of text items); blank means no search. */
  q?: string;
  /** Items per page (the service's default is 20). */
  limit?: number;
  /** Only the contents in this review state (issue 18). */
  review?: ReviewState;
  /** Only those made with this model, by this user, from this prompt (the gallery). */
  model?: string;
  userId?: string;
  promptId?: string;
  /** Only those made at or after `from` and before `to` (ISO instants). */
  from?: string;
  to?: string;
}

/** The filter without blanks (one query key and one URL for the same filter). */
function normalise(filter: ContentsFilter): ContentsFilter {
  const q = filter.q?.trim() || undefined;
  return {
    type: filter.type,
    q,
    review: filter.review,
    model: filter.model || undefined,
    userId: filter.userId || undefined,
    promptId: filter.promptId || undefined,
    from: filter.from || undefined,
    to: filter.to || undefined,
    limit: filter.limit,
  };
}

/** One page of GET /api/contents; `cursor` is the previous page's nextCursor. */
export async function fetchContentsPage(
  workspaceId: number,
  filter: ContentsFilter,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<ContentsPage> {
  const query = { workspaceId, ...normalise(filter), cursor: cursor ?? undefined };
  try {
    return await apiCall(contentRoutes.list, { query }, { signal });
  } catch (cause) {
    throw new Error('Failed to fetch contents', { cause });
  }
}

/**
 * The history of the current workspace, newest first, page by page (`fetchNextPage` while
 * `hasNextPage`). `data.pages` holds the pages; `contentItems(data)` flattens them.
 */
export function useContentsInfinite(filter: ContentsFilter = {}) {
  const { currentWorkspaceId } = useWorkspace();
  const normalised = normalise(filter);
  return useInfiniteQuery({
    queryKey: queryKeys.contentsPages(currentWorkspaceId ?? 0, normalised),
    queryFn: ({ pageParam, signal }) =>
      fetchContentsPage(currentWorkspaceId!, normalised, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: currentWorkspaceId !== null,
  });
}

/** The items of every loaded page, in order. */
export function contentItems(data: InfiniteData<ContentsPage> | undefined): ContentItem[] {
  return data?.pages.flatMap((page) => page.items) ?? [];
}

/** GET /api/contents/{id} (with x-workspace-id); idle while `id` is empty or no workspace is selected. */
export function useContent(id: string | null | undefined) {
  const { currentWorkspaceId } = useWorkspace();
  return useQuery({
    queryKey: queryKeys.content(id ?? ''),
    queryFn: getQueryFn<ContentItem>({ on401: 'throw' }),
    enabled: Boolean(id) && currentWorkspaceId !== null,
  });
}

/** GET /api/contents/{id}/conversation (with x-workspace-id): the thread, oldest first; idle while `id` is empty or no workspace is selected. */
export function useConversation(id: string | null | undefined) {
  const { currentWorkspaceId } = useWorkspace();
  return useQuery({
    queryKey: queryKeys.conversation(id ?? ''),
    queryFn: getQueryFn<ConversationResponse>({ on401: 'throw' }),
    enabled: Boolean(id) && currentWorkspaceId !== null,
  });
}

/** The thread of a content, oldest first (for one-off reads such as continue mode). */
export function fetchConversation(id: string): Promise<ConversationResponse> {
  return apiCall(contentRoutes.conversation, { params: { id } });
}

/** GET /api/stats?workspaceId=: the three counts of the stats page. */
export function useStats() {
  const { currentWorkspaceId } = useWorkspace();
  return useQuery({
    queryKey: queryKeys.stats(currentWorkspaceId ?? 0),
    queryFn: getQueryFn<StatsResponse>({ on401: 'throw' }),
    enabled: currentWorkspaceId !== null,
  });
}

/** DELETE /api/contents/{id}. */
export async function deleteContent(id: string): Promise<void> {
  await apiCall(contentRoutes.remove, { params: { id } });
}

/** Deletes a content, then refreshes every content list, thread and the stats. */
export function useDeleteContent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteContent,
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.content(id) });
      await Promise.all([
        queryClient.invalidateQueries(urlFilter('/api/contents')),
        queryClient.invalidateQueries(urlFilter('/api/stats')),
      ]);
    },
  });
}

/** POST /api/contents/{id}/review: submit, approve or request changes (issue 18). */
export interface ReviewChange {
  action: ReviewAction;
  /** Required with request-changes. */
  comment?: string;
}

export function reviewContent(id: string, body: ReviewChange): Promise<ContentItem> {
  return apiCall(contentRoutes.review, { params: { id }, body });
}

/** A review change, then every content list, the content and the stats refreshed. */
export function useReviewContent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: ReviewChange & { id: string }) => reviewContent(id, body),
    onSuccess: async (_, { id }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.content(id) }),
        queryClient.invalidateQueries(urlFilter('/api/contents')),
        queryClient.invalidateQueries(urlFilter('/api/stats')),
      ]);
    },
  });
}

/** Refreshes the history lists and the stats (after a generation stored new content). */
export function invalidateContents(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries(urlFilter('/api/contents')),
    queryClient.invalidateQueries(urlFilter('/api/stats')),
  ]);
}
