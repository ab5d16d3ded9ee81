import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { USAGE_OVERVIEW_MAX_WORKSPACES, USAGE_ROUTES, type UsageOverview } from '@aict/contracts';
import { apiCall, routeQueryKey, routeUrl } from '@aict/web-kit';

/** GET /api/usage/summary: the workspace's month (admins) or the caller's own (members). */
export function useUsageSummary(workspaceId: number | null) {
  const query = { workspaceId: workspaceId ?? undefined };
  return useQuery({
    queryKey: routeQueryKey(USAGE_ROUTES.summary, undefined, query),
    queryFn: () => apiCall(USAGE_ROUTES.summary, { query }),
    enabled: workspaceId !== null,
  });
}

/** Where the month's ledger downloads as CSV (a plain link: the session cookie goes along). */
export const usageCsvUrl = (workspaceId: number, month: string) =>
  routeUrl(USAGE_ROUTES.exportCsv, undefined, { workspaceId, month });

/** GET /api/usage/limits: the budget, the rate limit and the user caps (admins). */
export function useUsageLimits(workspaceId: number | null) {
  const query = { workspaceId: workspaceId ?? 0 };
  return useQuery({
    queryKey: routeQueryKey(USAGE_ROUTES.limits, undefined, query),
    queryFn: () => apiCall(USAGE_ROUTES.limits, { query }),
    enabled: workspaceId !== null,
  });
}

/** PUT the monthly budget (super admin) or the per-user rate limit (admins). */
export function useSaveLimit(workspaceId: number) {
  const queryClient = useQueryClient();
  const query = { workspaceId };
  return useMutation({
    mutationFn: (change: { budgetMicros: number | null } | { perMinute: number | null }) =>
      'budgetMicros' in change
        ? apiCall(USAGE_ROUTES.setBudget, {
            query,
            body: { monthlyBudgetMicros: change.budgetMicros },
          })
        : apiCall(USAGE_ROUTES.setRateLimit, {
            query,
            body: { requestsPerMinute: change.perMinute },
          }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({
          queryKey: routeQueryKey(USAGE_ROUTES.limits, undefined, query),
        }),
        queryClient.invalidateQueries({
          queryKey: routeQueryKey(USAGE_ROUTES.summary, undefined, query),
        }),
      ]),
  });
}

/** PUT a user's monthly cap (workspace admins); null removes it. */
export function useSaveUserCap(workspaceId: number) {
  const queryClient = useQueryClient();
  const query = { workspaceId };
  return useMutation({
    mutationFn: ({ userId, capMicros }: { userId: string; capMicros: number | null }) =>
      apiCall(USAGE_ROUTES.setUserCap, {
        params: { userId },
        query,
        body: { monthlyCapMicros: capMicros },
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: routeQueryKey(USAGE_ROUTES.limits, undefined, query),
      }),
  });
}

/**
 * GET /api/usage/workspaces: this month of every given workspace side by side (super admin),
 * asked in chunks of the route's maximum, merged and sorted by spend (the highest first).
 */
export function useUsageOverview(workspaceIds: number[]) {
  const ids = [...workspaceIds].sort((a, b) => a - b);
  return useQuery({
    queryKey: routeQueryKey(USAGE_ROUTES.overview, undefined, { ids: ids.join(',') }),
    enabled: ids.length > 0,
    queryFn: async (): Promise<UsageOverview> => {
      const chunks: number[][] = [];
      for (let i = 0; i < ids.length; i += USAGE_OVERVIEW_MAX_WORKSPACES)
        chunks.push(ids.slice(i, i + USAGE_OVERVIEW_MAX_WORKSPACES));
      const answers = await Promise.all(
        chunks.map((chunk) => apiCall(USAGE_ROUTES.overview, { query: { ids: chunk.join(',') } })),
      );
      const workspaces = answers
        .flatMap((answer) => answer.workspaces)
        .sort((a, b) => b.spentMicros - a.spentMicros || a.workspaceId - b.workspaceId);
      return { month: answers[0]!.month, currency: answers[0]!.currency, workspaces };
    },
  });
}
