import { useState, type FormEvent } from 'react';
import type { AuditEntry, AuditSummary } from '@aict/contracts';
import {
  Button,
  Card,
  CardContent,
  Input,
  Label,
  Page,
  Select,
  Spinner,
  buttonClass,
  errorMessage,
  useSession,
  useTranslation,
  useUserNames,
  useWorkspace,
} from '@aict/web-kit';
import {
  NO_FILTERS,
  auditCsvUrl,
  useAuditLog,
  type AuditFilters,
  type AuditView,
} from '../api/audit';
import styles from './audit.module.css';

const FILTER_FIELDS = ['actor', 'action', 'target'] as const;
const DATE_FIELDS = ['from', 'to'] as const;

const summaryText = (summary: AuditSummary | null) =>
  summary === null
    ? '–'
    : Object.entries(summary)
        .map(([key, value]) => `${key}: ${value === null ? '–' : String(value)}`)
        .join(', ');

/**
 * /audit (workspace admins and the super admin, issue 17): the audit log, newest first,
 * filtered by actor, action, target and date, with a CSV export of the same filters. A
 * workspace admin reads the current workspace's entries; the super admin chooses between
 * everything (sign-ins and other platform acts included) and the workspace in view.
 */
export function AuditPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const { currentWorkspaceId } = useWorkspace();
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [scope, setScope] = useState<'platform' | 'workspace'>('platform');
  const superAdmin = Boolean(user?.isSuperAdmin);
  const view: AuditView | null =
    currentWorkspaceId !== null && (!superAdmin || scope === 'workspace')
      ? { workspaceId: currentWorkspaceId }
      : superAdmin
        ? 'platform'
        : null;
  const log = useAuditLog(view, filters);
  const userNames = useUserNames({ enabled: view !== null });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
  };

  return (
    <Page
      title={t('audit.title')}
      description={t('audit.description')}
      actions={
        <a
          className={buttonClass({ variant: 'outline' })}
          href={auditCsvUrl(view ?? 'platform', filters)}
          download
        >
          {t('audit.exportCsv')}
        </a>
      }
    >
      <form className={styles.filters} onSubmit={apply}>
        {superAdmin && currentWorkspaceId !== null && (
          <div className={`${styles.field} ${styles.scope}`}>
            <Label htmlFor="audit-scope">{t('audit.scope')}</Label>
            <Select
              id="audit-scope"
              value={scope}
              onChange={(e) => setScope(e.target.value === 'workspace' ? 'workspace' : 'platform')}
            >
              <option value="platform">{t('audit.scopePlatform')}</option>
              <option value="workspace">{t('audit.scopeWorkspace')}</option>
            </Select>
          </div>
        )}
        {FILTER_FIELDS.map((field) => (
          <div key={field} className={styles.field}>
            <Label htmlFor={`audit-${field}`}>{t(`audit.${field}`)}</Label>
            <Input
              id={`audit-${field}`}
              value={draft[field]}
              maxLength={200}
              onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
            />
          </div>
        ))}
        {DATE_FIELDS.map((field) => (
          <div key={field} className={styles.field}>
            <Label htmlFor={`audit-${field}`}>{t(`audit.${field}`)}</Label>
            <Input
              id={`audit-${field}`}
              type="date"
              value={draft[field]}
              onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
            />
          </div>
        ))}
        <div className={styles.buttons}>
          <Button type="submit">{t('audit.apply')}</Button>
          <Button variant="outline" onClick={clear}>
            {t('audit.clear')}
          </Button>
        </div>
      </form>
      {log.isPending && log.fetchStatus !== 'idle' && <Spinner size="lg" />}
      {log.isError && (
        <p role="alert" className={styles.error}>
          {t('audit.loadFailed', { message: errorMessage(log.error) })}
        </p>
      )}
      {log.data && (
        <Card>
          <CardContent>
            {entries.length === 0 ? (
              <p className={styles.muted}>{t('audit.empty')}</p>
            ) : (
              <div className={styles.scroll}>
                <table className={styles.table} aria-label={t('audit.table')}>
                  <thead>
                    <tr>
                      <th scope="col">{t('audit.time')}</th>
                      <th scope="col">{t('audit.actor')}</th>
                      <th scope="col">{t('audit.action')}</th>
                      <th scope="col">{t('audit.target')}</th>
                      <th scope="col">{t('audit.workspace')}</th>
                      <th scope="col">{t('audit.change')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {entries.map((entry) => (
                      <AuditRow
                        key={entry.seq}
                        entry={entry}
                        time={time}
                        actorName={entry.actorId ? userNames.data?.get(entry.actorId) : undefined}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {log.hasNextPage && (
              <Button
                variant="outline"
                className={styles.more}
                disabled={log.isFetchingNextPage}
                onClick={() => void log.fetchNextPage()}
              >
                {t('audit.older')}
              </Button>
            )}
          </CardContent>
        </Card>
      )}
    </Page>
  );
}

function AuditRow({
  entry,
  time,
  actorName,
}: {
  entry: AuditEntry;
  time: Intl.DateTimeFormat;
  /** The actor's username when the entry holds only their id (a user the viewer may list). */
  actorName?: string;
}) {
  const { t } = useTranslation();
  const labels = t('audit.actions', { returnObjects: true }) as Record<string, string>;
  const label = Object.hasOwn(labels, entry.action) ? labels[entry.action] : undefined;
  return (
    <tr>
      <td className={styles.nowrap}>
        <time dateTime={entry.at}>{time.format(new Date(entry.at))}</time>
      </td>
      <td>{entry.actorName ?? actorName ?? entry.actorId ?? t('audit.unknownActor')}</td>
      <td>
        {label && <span className={styles.label}>{label}</span>}
        <span className={styles.code}>{entry.action}</span>
      </td>
      <td className={styles.code}>
        {entry.targetType}: {entry.targetId}
      </td>
      <td>{entry.workspaceId ?? '–'}</td>
      <td className={styles.change}>
        {summaryText(entry.before)} → {summaryText(entry.after)}
      </td>
    </tr>
  );
}
