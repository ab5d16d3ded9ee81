import type { UsageOverviewRow, Workspace } from '@aict/contracts';
import {
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Spinner,
  errorMessage,
  useTranslation,
} from '@aict/web-kit';
import { useUsageOverview } from '../api/usage';
import { useMoney } from '../../../lib/money';
import styles from './usage.module.css';

/** A row's level: the banner's thresholds (80 % warning, 100 % reached). */
const levelOf = (row: UsageOverviewRow) =>
  row.usedPercent === null
    ? 'none'
    : row.usedPercent >= 100
      ? 'reached'
      : row.usedPercent >= 80
        ? 'warning'
        : 'ok';

/**
 * The super admin's side by side view on /usage (issue 14): one row per workspace with this
 * month's spend, budget and % used, the highest spend first. The server reads each
 * workspace's counter and budget by `_id` (GET /api/usage/workspaces).
 */
export function WorkspacesOverview({
  workspaces,
  onOpen,
}: {
  workspaces: Workspace[];
  /** Shows one workspace's own month. */
  onOpen: (workspaceId: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const overview = useUsageOverview(workspaces.map((workspace) => workspace.id));
  const names = new Map(workspaces.map((workspace) => [workspace.id, workspace.name]));
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent' });

  if (workspaces.length === 0) return <p className={styles.muted}>{t('usage.overviewEmpty')}</p>;
  if (overview.isError)
    return (
      <p role="alert" className={styles.error}>
        {t('usage.loadFailed', { message: errorMessage(overview.error) })}
      </p>
    );
  if (!overview.data) return <Spinner size="lg" />;
  const { month, currency } = overview.data;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('usage.overviewTitle', { month })}</CardTitle>
      </CardHeader>
      <CardContent>
        <table className={styles.table} aria-label={t('usage.overviewTable')}>
          <thead>
            <tr>
              <th scope="col">{t('usage.workspace')}</th>
              <th scope="col">{t('usage.spent')}</th>
              <th scope="col">{t('usage.budget')}</th>
              <th scope="col">{t('usage.used')}</th>
            </tr>
          </thead>
          <tbody>
            {overview.data.workspaces.map((row) => {
              const level = levelOf(row);
              return (
                <tr key={row.workspaceId} data-level={level}>
                  <th scope="row" className={styles.key}>
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() => onOpen(row.workspaceId)}
                    >
                      {names.get(row.workspaceId) ?? `#${row.workspaceId}`}
                    </button>
                  </th>
                  <td>{money(row.spentMicros, currency)}</td>
                  <td>
                    {row.monthlyBudgetMicros === null
                      ? t('usage.noBudgetShort')
                      : money(row.monthlyBudgetMicros, currency)}
                  </td>
                  <td
                    className={
                      level === 'reached' || level === 'warning' ? styles[level] : undefined
                    }
                  >
                    {row.usedPercent === null ? '–' : percent.format(row.usedPercent / 100)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
