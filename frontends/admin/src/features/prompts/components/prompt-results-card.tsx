import { USAGE_CURRENCY, type Prompt, type PromptResultsResponse } from '@aict/contracts';
import {
  useUserNames,
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Spinner,
  useSession,
  useTranslation,
} from '@aict/web-kit';
import { useMoney } from '../../../lib/money';
import { usePromptResults } from '../api/prompt-results';
import styles from './prompts.module.css';

/**
 * 'Results' (issue 18, edit tab beside the versions, admins): per version its runs, the share
 * approved in review and the cost per approved item; per user their runs and approvals. Users
 * are named where the caller may list them (their id otherwise); money in the screen's language.
 */
export function PromptResultsCard({
  prompt,
  workspaceId,
}: {
  prompt: Prompt;
  workspaceId: number | null;
}) {
  const { t } = useTranslation();
  const query = usePromptResults(prompt.id, workspaceId);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('admin.results.title')}</CardTitle>
        <CardDescription>{t('admin.results.description')}</CardDescription>
      </CardHeader>
      <CardContent className={styles.results}>
        {query.isPending && <Spinner label={t('admin.results.loading')} />}
        {query.isError && (
          <p role="alert" className={styles.muted}>
            {t('admin.results.loadFailed')}
          </p>
        )}
        {query.data && <ResultsTables results={query.data} />}
      </CardContent>
    </Card>
  );
}

function ResultsTables({ results }: { results: PromptResultsResponse }) {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const names = useUserNames();
  const money = useMoney();
  const currency = results.currency || USAGE_CURRENCY;
  const percent = new Intl.NumberFormat(i18n.language, {
    style: 'percent',
    maximumFractionDigits: 1,
  });
  const amount = (micros: number | null) =>
    micros === null ? (
      <span className={styles.muted}>{t('admin.results.unknownCost')}</span>
    ) : (
      money(micros, currency)
    );
  const nameOf = (userId: string) =>
    userId === user?.id ? t('admin.results.you') : (names.data?.get(userId) ?? userId);
  const neverRun = results.versions.every((v) => v.runs === 0) && results.users.length === 0;

  return (
    <>
      {neverRun && <p className={styles.muted}>{t('admin.results.empty')}</p>}
      <div className={styles.tableScroll}>
        <table className={styles.table} aria-label={t('admin.results.byVersion')}>
          <thead>
            <tr>
              <th scope="col">{t('admin.results.version')}</th>
              <th scope="col" className={styles.numeric}>
                {t('admin.results.runs')}
              </th>
              <th scope="col" className={styles.numeric}>
                {t('admin.results.approved')}
              </th>
              <th scope="col" className={styles.numeric}>
                {t('admin.results.approvedShare')}
              </th>
              <th scope="col" className={styles.numeric}>
                {t('admin.results.cost')}
              </th>
              <th scope="col" className={styles.numeric}>
                {t('admin.results.costPerApproved')}
              </th>
            </tr>
          </thead>
          <tbody>
            {results.versions.map((row) => (
              <tr key={row.version}>
                <th scope="row">
                  <span className={styles.rowHeader}>
                    {t('admin.results.versionNumber', { version: row.version })}
                    {row.version === results.currentVersion && (
                      <Badge variant="secondary">{t('admin.results.current')}</Badge>
                    )}
                  </span>
                </th>
                <td className={styles.numeric}>{row.runs}</td>
                <td className={styles.numeric}>{row.approved}</td>
                <td className={styles.numeric}>{percent.format(row.approvedShare)}</td>
                <td className={styles.numeric}>{amount(row.costMicros)}</td>
                <td className={styles.numeric}>{amount(row.costPerApprovedMicros)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {results.users.length === 0 ? (
        !neverRun && <p className={styles.muted}>{t('admin.results.noUsers')}</p>
      ) : (
        <div className={styles.tableScroll}>
          <table className={styles.table} aria-label={t('admin.results.byUser')}>
            <thead>
              <tr>
                <th scope="col">{t('admin.results.user')}</th>
                <th scope="col" className={styles.numeric}>
                  {t('admin.results.runs')}
                </th>
                <th scope="col" className={styles.numeric}>
                  {t('admin.results.approved')}
                </th>
              </tr>
            </thead>
            <tbody>
              {results.users.map((row) => (
                <tr key={row.userId}>
                  <th scope="row">{nameOf(row.userId)}</th>
                  <td className={styles.numeric}>{row.runs}</td>
                  <td className={styles.numeric}>{row.approved}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className={styles.hint}>{t('admin.results.note')}</p>
    </>
  );
}
