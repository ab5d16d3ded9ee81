import { useId, useState } from 'react';
import type { UsageSummary } from '@aict/contracts';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Page,
  Spinner,
  buttonClass,
  errorMessage,
  usePrompts,
  useSession,
  useTranslation,
  useUserNames,
  useWorkspace,
} from '@aict/web-kit';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { usageCsvUrl, useUsageSummary } from '../api/usage';
import { LimitsCard } from './limits-card';
import { UserCapsCard } from './user-caps-card';
import { WorkspacesOverview } from './workspaces-overview';
import styles from './usage.module.css';
import { fromMicros, toMicros, useMoney } from '../../../lib/money';

/**
 * /usage (workspace admins and the super admin, issue 14): the month to date against the
 * budget with the 80 % warning, cost by day as a chart, by user, model and prompt, CSV export.
 * The super admin may show all workspaces side by side instead (also without a workspace).
 */
export function UsagePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { currentWorkspaceId, currentWorkspace, workspaces, selectWorkspace } = useWorkspace();
  const [scope, setScope] = useState<'workspace' | 'all'>('workspace');
  const superAdmin = Boolean(user?.isSuperAdmin);
  const showAll = superAdmin && (scope === 'all' || currentWorkspaceId === null);
  const summary = useUsageSummary(showAll ? null : currentWorkspaceId);

  if (showAll) {
    return (
      <Page title={t('usage.title')} description={t('usage.overviewText')}>
        {currentWorkspaceId !== null && <ScopeChoice scope={scope} onChange={setScope} />}
        <WorkspacesOverview
          workspaces={workspaces}
          onOpen={(id) => {
            if (id !== currentWorkspaceId) selectWorkspace(id);
            setScope('workspace');
          }}
        />
      </Page>
    );
  }

  return (
    <Page
      title={t('usage.title')}
      description={t('usage.description', { name: currentWorkspace?.name ?? '' })}
      actions={
        summary.data && currentWorkspaceId !== null ? (
          <a
            className={buttonClass({ variant: 'outline' })}
            href={usageCsvUrl(currentWorkspaceId, summary.data.month)}
            download
          >
            {t('usage.exportCsv')}
          </a>
        ) : undefined
      }
    >
      {superAdmin && <ScopeChoice scope={scope} onChange={setScope} />}
      {summary.isPending && currentWorkspaceId !== null && <Spinner size="lg" />}
      {summary.isError && (
        <p role="alert" className={styles.error}>
          {t('usage.loadFailed', { message: errorMessage(summary.error) })}
        </p>
      )}
      {summary.data && <UsageReport summary={summary.data} />}
      {currentWorkspaceId !== null && (
        <div className={styles.section}>
          <LimitsCard workspaceId={currentWorkspaceId} />
        </div>
      )}
      {currentWorkspaceId !== null && summary.data?.scope === 'workspace' && (
        <div className={styles.section}>
          <UserCapsCard
            workspaceId={currentWorkspaceId}
            users={summary.data.byUser.map((row) => row.key)}
            currency={summary.data.currency}
          />
        </div>
      )}
    </Page>
  );
}

/** The super admin's choice: the current workspace's month, or all workspaces side by side. */
function ScopeChoice({
  scope,
  onChange,
}: {
  scope: 'workspace' | 'all';
  onChange: (scope: 'workspace' | 'all') => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className={styles.scope}>
      <legend>{t('usage.scope')}</legend>
      {(['workspace', 'all'] as const).map((value) => (
        <label key={value}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={scope === value}
            onChange={() => onChange(value)}
          />
          {value === 'workspace' ? t('usage.scopeWorkspace') : t('usage.scopeAll')}
        </label>
      ))}
    </fieldset>
  );
}

function UsageReport({ summary }: { summary: UsageSummary }) {
  const { t } = useTranslation();
  const money = useMoney();
  const userNames = useUserNames({ enabled: summary.scope === 'workspace' });
  const prompts = usePrompts(summary.workspaceId);
  const promptNames = new Map((prompts.data ?? []).map((prompt) => [prompt.id, prompt.name]));
  const budget = summary.monthlyBudgetMicros;
  const share = budget ? Math.min(1, summary.spentMicros / budget) : null;
  const days = summary.byDay.map((row) => ({
    day: row.key.slice(8),
    cost: fromMicros(row.costMicros),
  }));

  return (
    <div className={styles.stack}>
      {summary.reached ? (
        <p role="alert" className={`${styles.banner} ${styles.reached}`}>
          {t('usage.reached')}
        </p>
      ) : (
        summary.warning && (
          <p role="alert" className={styles.banner}>
            {t('usage.warning')}
          </p>
        )
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t('usage.monthToDate', { month: summary.month })}</CardTitle>
          <CardDescription>
            {budget === null
              ? t('usage.noBudget')
              : t('usage.ofBudget', { budget: money(budget, summary.currency) })}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <p className={styles.total} data-testid="usage-spent">
            {money(summary.spentMicros, summary.currency)}
          </p>
          {share !== null && (
            <div
              className={styles.meter}
              role="progressbar"
              aria-label={t('usage.budgetUsed')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(share * 100)}
            >
              <div className={styles.meterFill} style={{ width: `${share * 100}%` }} />
            </div>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('usage.byDay')}</CardTitle>
        </CardHeader>
        <CardContent>
          {days.length === 0 ? (
            <p className={styles.muted}>{t('usage.empty')}</p>
          ) : (
            <div className={styles.chart}>
              <ResponsiveContainer width="100%" height={240}>
                <BarChart data={days}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--wk-border)" />
                  <XAxis dataKey="day" stroke="var(--wk-muted-fg)" />
                  <YAxis stroke="var(--wk-muted-fg)" />
                  <Tooltip
                    formatter={(value) => money(toMicros(Number(value)), summary.currency)}
                    contentStyle={{
                      background: 'var(--wk-card)',
                      border: '1px solid var(--wk-border)',
                      color: 'var(--wk-fg)',
                    }}
                  />
                  <Bar dataKey="cost" name={t('usage.cost')} fill="var(--wk-primary)" />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
        </CardContent>
      </Card>
      <div className={styles.grid}>
        <CostTable
          title={t('usage.byUser')}
          rows={summary.byUser}
          nameOf={(id) => userNames.data?.get(id) ?? id}
          currency={summary.currency}
        />
        <CostTable title={t('usage.byModel')} rows={summary.byModel} currency={summary.currency} />
        <CostTable
          title={t('usage.byPrompt')}
          rows={summary.byPrompt}
          nameOf={(id) => (id ? (promptNames.get(id) ?? id) : t('usage.noPrompt'))}
          currency={summary.currency}
        />
      </div>
    </div>
  );
}

function CostTable({
  title,
  rows,
  nameOf = (key) => key,
  currency,
}: {
  title: string;
  rows: UsageSummary['byUser'];
  /** What a row's key is shown as (a user's or a prompt's name; its id when unknown). */
  nameOf?: (key: string) => string;
  currency: string;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <table className={styles.table} aria-label={title}>
          <thead>
            <tr>
              <th scope="col">{t('usage.name')}</th>
              <th scope="col">{t('usage.calls')}</th>
              <th scope="col">{t('usage.cost')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <td className={styles.key}>{nameOf(row.key)}</td>
                <td>{row.calls}</td>
                <td>{money(row.costMicros, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
