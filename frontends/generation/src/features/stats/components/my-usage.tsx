import { useId, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { USAGE_ROUTES, type MyUsage } from '@aict/contracts';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  apiCall,
  routeQueryKey,
  useTranslation,
  useWorkspace,
} from '@aict/web-kit';
import shared from '../../../lib/generation.module.css';
import styles from './my-usage.module.css';

/** The caller's own month in the current workspace (GET /api/usage/me). */
export function useMyUsage(workspaceId: number | null) {
  const query = { workspaceId: workspaceId ?? 0 };
  return useQuery({
    queryKey: routeQueryKey(USAGE_ROUTES.mine, undefined, query),
    queryFn: () => apiCall(USAGE_ROUTES.mine, { query }),
    enabled: workspaceId !== null,
    retry: false,
  });
}

/** Micro-units as money in the screen's language (4 decimals below one cent). */
function useMoney() {
  const { i18n } = useTranslation();
  return (micros: number, currency: string) =>
    new Intl.NumberFormat(i18n.language, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: micros !== 0 && Math.abs(micros) < 10_000 ? 4 : 2,
    }).format(micros / 1_000_000);
}

/**
 * Issue 14 on /stats: the member's own spend and generations this month and their cap when
 * one is set. Nothing shows while it loads or when it cannot be read (the rest of the page
 * does not depend on it).
 */
export function MyUsageSection() {
  const { currentWorkspaceId } = useWorkspace();
  const usage = useMyUsage(currentWorkspaceId);
  if (!usage.data || usage.data.workspaceId !== currentWorkspaceId) return null;
  return <MyUsageCard usage={usage.data} />;
}

function MyUsageCard({ usage }: { usage: MyUsage }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const id = useId();
  const cap = usage.capMicros;
  const share = cap ? Math.min(1, usage.spentMicros / cap) : null;
  return (
    <section className={shared.section} aria-labelledby={id}>
      <h2 id={id} className={shared.sectionTitle}>
        {t('stats.myMonth', { month: usage.month })}
      </h2>
      <div className={shared.countGrid}>
        <Figure label={t('stats.mySpend')} value={money(usage.spentMicros, usage.currency)} />
        <Figure
          label={t('stats.myGenerations')}
          value={new Intl.NumberFormat(i18n.language).format(usage.generations)}
        />
        <Figure
          label={t('stats.myCap')}
          value={cap === null ? t('stats.noCap') : money(cap, usage.currency)}
        >
          {share !== null && (
            <div
              className={styles.meter}
              role="progressbar"
              aria-label={t('stats.capUsed')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(share * 100)}
            >
              <div className={styles.meterFill} style={{ width: `${share * 100}%` }} />
            </div>
          )}
        </Figure>
      </div>
    </section>
  );
}

function Figure({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <CardDescription>{label}</CardDescription>
        <CardTitle className={shared.count} aria-label={t('stats.countLabel', { label, value })}>
          {value}
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
