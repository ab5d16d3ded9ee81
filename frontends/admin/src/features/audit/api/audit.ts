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

/**
 * Whose entries: one workspace's, or (the super admin) `platform`: every entry, sign-ins and
 * other acts tied to no workspace included, whichever workspace is in view.
 */
export type AuditView = { workspaceId: number } | 'platform';

/** The query of a list or export: only the filters that are set, and whose entries. */
function auditQuery(view: AuditView, filters: AuditFilters) {
  const set = Object.fromEntries(
    Object.entries(filters)
      .map(([key, value]) => [key, value.trim()])
      .filter(([, value]) => value !== ''),
  ) as Partial<AuditFilters>;
  return { ...(view === 'platform' ? { scope: 'platform' as const } : view), ...set };
}

/** GET /api/audit, newest first, a page at a time (`next` is the cursor of the older page). */
export function useAuditLog(view: AuditView | null, filters: AuditFilters) {
  const query = auditQuery(view ?? 'platform', filters);
  return useInfiniteQuery({
    queryKey: routeQueryKey(AUDIT_ROUTES.list, undefined, query),
    queryFn: ({ pageParam }) =>
      apiCall(AUDIT_ROUTES.list, {
        query: pageParam === null ? query : { ...query, before: pageParam },
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next,
    enabled: view !== null,
  });
}

/** Where the filtered log downloads as CSV (a plain link: the session cookie goes along). */
export const auditCsvUrl = (view: AuditView, filters: AuditFilters) =>
  routeUrl(AUDIT_ROUTES.export, undefined, auditQuery(view, filters));
