import { useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_ROUTES } from '@aict/contracts';
import { apiCall, routeQueryKey, routeUrl } from '@aict/web-kit';

/** The screen's filters, as typed (empty: no filter). */
export interface AuditFilters {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { actor: '', action: '', target: '', from: '', to: '' };

/** The query of a list or export: only the filters that are set; a workspace for its admins. */
function auditQuery(workspaceId: number | null, filters: AuditFilters) {
  const set = Object.fromEntries(
    Object.entries(filters)
      .map(([key, value]) => [key, value.trim()])
      .filter(([, value]) => value !== ''),
  ) as Partial<AuditFilters>;
  return { ...(workspaceId !== null ? { workspaceId } : {}), ...set };
}

/**
 * GET /api/audit, newest first, a page at a time (`next` is the cursor of the older page).
 * `workspaceId` null: every entry (the super admin).
 */
export function useAuditLog(workspaceId: number | null, filters: AuditFilters, enabled: boolean) {
  const query = auditQuery(workspaceId, filters);
  return useInfiniteQuery({
    queryKey: routeQueryKey(AUDIT_ROUTES.list, undefined, query),
    queryFn: ({ pageParam }) =>
      apiCall(AUDIT_ROUTES.list, {
        query: pageParam === null ? query : { ...query, before: pageParam },
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next,
    enabled,
  });
}

/** Where the filtered log downloads as CSV (a plain link: the session cookie goes along). */
export const auditCsvUrl = (workspaceId: number | null, filters: AuditFilters) =>
  routeUrl(AUDIT_ROUTES.export, undefined, auditQuery(workspaceId, filters));
