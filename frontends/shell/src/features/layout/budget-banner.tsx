import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { USAGE_ROUTES, type BudgetStatus } from '@aict/contracts';
import { apiCall, routeQueryKey, useTranslation, useWorkspace } from '@aict/web-kit';
import styles from './budget-banner.module.css';

/** How often the banner reads the counter again while a screen stays open. */
const REFRESH_MS = 60_000;

/** A banner dismissed in this browser session stays away for its workspace, month and level. */
const dismissKey = (status: BudgetStatus) =>
  `aict.budgetBanner.${status.workspaceId}.${status.month}.${status.reached ? 'reached' : 'warning'}`;

function isDismissed(key: string): boolean {
  try {
    return sessionStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function rememberDismissed(key: string) {
  try {
    sessionStorage.setItem(key, '1');
  } catch {
    // storage refused (private mode): dismissed for this page only
  }
}

/**
 * Issue 14: for the admins of the current workspace (and the super admin), a warning when the
 * workspace has used ≥ 80 % of its monthly budget and a stronger one at 100 %, linking to
 * /usage; dismissible for the browser session. Reads GET /api/usage/budget-status (the month
 * counter and the budget by `_id`), never the summary.
 */
export function BudgetBanner() {
  const { t } = useTranslation();
  const { currentWorkspaceId, isAdmin } = useWorkspace();
  const [dismissed, setDismissed] = useState<string[]>([]);
  const query = { workspaceId: currentWorkspaceId ?? 0 };
  const status = useQuery({
    queryKey: routeQueryKey(USAGE_ROUTES.budgetStatus, undefined, query),
    queryFn: () => apiCall(USAGE_ROUTES.budgetStatus, { query }),
    enabled: isAdmin && currentWorkspaceId !== null,
    refetchInterval: REFRESH_MS,
    retry: false,
  });
  // /usage states the same at its top: one notice, not two.
  const onUsage = useLocation().pathname === '/usage';
  const data = isAdmin && currentWorkspaceId !== null && !onUsage ? status.data : undefined;
  if (!data || data.workspaceId !== currentWorkspaceId || !(data.warning || data.reached)) {
    return null;
  }
  const key = dismissKey(data);
  if (dismissed.includes(key) || isDismissed(key)) return null;
  const percent =
    data.monthlyBudgetMicros && data.monthlyBudgetMicros > 0
      ? Math.floor((data.spentMicros * 100) / data.monthlyBudgetMicros)
      : 100;

  return (
    <div
      role={data.reached ? 'alert' : 'status'}
      className={`${styles.banner} ${data.reached ? styles.reached : styles.warning}`}
      data-level={data.reached ? 'reached' : 'warning'}
    >
      <p className={styles.text}>
        {data.reached ? t('shell.budget.reached') : t('shell.budget.warning', { percent })}{' '}
        <Link to="/usage" className={styles.link}>
          {t('shell.budget.viewUsage')}
        </Link>
      </p>
      <button
        type="button"
        className={styles.dismiss}
        aria-label={t('shell.budget.dismiss')}
        onClick={() => {
          rememberDismissed(key);
          setDismissed((keys) => [...keys, key]);
        }}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
