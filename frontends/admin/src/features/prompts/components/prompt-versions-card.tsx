import { useState } from 'react';
import type { Prompt, PromptVersion, PromptView } from '@aict/contracts';
import {
  useUserNames,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  cn,
  errorMessage,
  isApiError,
  relativeTime,
  Spinner,
  toast,
  useSession,
  useTranslation,
  VisuallyHidden,
} from '@aict/web-kit';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { usePromptVersions, useRestorePromptVersion } from '../api/prompt-versions';
import { lineDiff } from '../lib/line-diff';
import styles from './prompts.module.css';

/**
 * 'Versions' (issue 18, edit tab, admins): the kept versions newest first; selecting one shows
 * its template against the current one, line by line, and 'Restore' saves it as a new version
 * after a confirmation. `onRestored` gets the prompt as restored (the form shows it).
 */
export function PromptVersionsCard({
  prompt,
  workspaceId,
  onRestored,
}: {
  prompt: Prompt;
  workspaceId: number | null;
  onRestored: (prompt: PromptView) => void;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const query = usePromptVersions(prompt.id, workspaceId);
  const names = useUserNames();
  const restore = useRestorePromptVersion();
  const [selected, setSelected] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);

  const versions = query.data?.versions ?? [];
  const current = versions[0];
  const chosen = versions.find((v) => v.version === selected && v !== current);

  const author = (editedBy: string | null) => {
    if (editedBy && editedBy === user?.id) return t('admin.versions.you');
    return (editedBy && names.data?.get(editedBy)) ?? t('admin.versions.unknownUser');
  };

  const confirmRestore = () => {
    if (!chosen || !query.data) return;
    restore.mutate(
      {
        id: prompt.id,
        version: chosen.version,
        currentVersion: query.data.current,
        workspaceId,
      },
      {
        onSuccess: (restored) => {
          setConfirming(false);
          setSelected(null);
          onRestored(restored);
          toast({
            title: t('admin.versions.restored', { version: chosen.version }),
            variant: 'success',
          });
        },
        onError: (error) => {
          setConfirming(false);
          const description = isApiError(error, 409)
            ? t('admin.versions.conflict')
            : isApiError(error, 404)
              ? t('admin.versions.gone')
              : errorMessage(error);
          toast({
            title: t('admin.versions.restoreFailed'),
            description,
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('admin.versions.title')}</CardTitle>
        <CardDescription>{t('admin.versions.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending && <Spinner label={t('admin.versions.loading')} />}
        {query.isError && (
          <p role="alert" className={styles.muted}>
            {t('admin.versions.loadFailed')}
          </p>
        )}
        {versions.length > 0 && (
          <ul className={styles.versions} aria-label={t('admin.versions.list')}>
            {versions.map((version) => {
              const isCurrent = version === current;
              return (
                <li key={version.version}>
                  <button
                    type="button"
                    className={styles.version}
                    aria-pressed={isCurrent ? undefined : version.version === selected}
                    disabled={isCurrent}
                    onClick={() =>
                      setSelected(version.version === selected ? null : version.version)
                    }
                  >
                    <span className={styles.versionNumber}>
                      {t('admin.versions.version', { version: version.version })}
                    </span>
                    {isCurrent && <Badge variant="secondary">{t('admin.versions.current')}</Badge>}
                    <span className={styles.muted}>
                      {t('admin.versions.by', { name: author(version.editedBy) })} ·{' '}
                      <time dateTime={version.editedAt}>{relativeTime(version.editedAt)}</time>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {chosen && current && (
          <VersionComparison
            chosen={chosen}
            current={current}
            pending={restore.isPending}
            onRestore={() => setConfirming(true)}
          />
        )}
      </CardContent>
      {chosen && (
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          title={t('admin.versions.confirmTitle', { version: chosen.version })}
          description={t('admin.versions.confirmText', { version: chosen.version })}
          confirmLabel={t('admin.versions.restore', { version: chosen.version })}
          pendingLabel={t('admin.versions.restoring')}
          pending={restore.isPending}
          onConfirm={confirmRestore}
        />
      )}
    </Card>
  );
}

/** The chosen version's template against the current one, and its other fields that differ. */
function VersionComparison({
  chosen,
  current,
  pending,
  onRestore,
}: {
  chosen: PromptVersion;
  current: PromptVersion;
  pending: boolean;
  onRestore: () => void;
}) {
  const { t } = useTranslation();
  const version = chosen.version;
  const lines = lineDiff(chosen.template, current.template);
  const changed = lines.some((line) => line.kind !== 'same');
  const fields = [
    { label: t('admin.versions.name'), before: chosen.name, after: current.name },
    {
      label: t('admin.versions.descriptionLabel'),
      before: chosen.description ?? '',
      after: current.description ?? '',
    },
    { label: t('admin.detail.category'), before: chosen.category, after: current.category },
    {
      label: t('admin.detail.contentType'),
      before: chosen.contentType,
      after: current.contentType,
    },
    { label: t('admin.detail.model'), before: chosen.model, after: current.model },
  ].filter((field) => field.before !== field.after);
  const headingId = `version-${version}-compare`;

  return (
    <section className={styles.versionCompare} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.sectionTitle}>
        {t('admin.versions.compare', { version })}
      </h3>
      {changed ? (
        <>
          <p className={styles.hint}>{t('admin.versions.legend', { version })}</p>
          <pre className={styles.templateText} data-testid="version-diff">
            {lines.map((line, i) => (
              <span
                key={i}
                className={cn(
                  styles.diffLine,
                  line.kind === 'removed' && styles.diffRemoved,
                  line.kind === 'added' && styles.diffAdded,
                )}
              >
                <span aria-hidden="true">
                  {line.kind === 'removed' ? '− ' : line.kind === 'added' ? '+ ' : '  '}
                </span>
                {line.kind !== 'same' && (
                  <VisuallyHidden>
                    {line.kind === 'removed'
                      ? t('admin.versions.removedLine', { version })
                      : t('admin.versions.addedLine')}
                    :{' '}
                  </VisuallyHidden>
                )}
                {line.text || ' '}
              </span>
            ))}
          </pre>
        </>
      ) : (
        <p className={styles.hint}>{t('admin.versions.sameTemplate', { version })}</p>
      )}
      {fields.length > 0 && (
        <>
          <h4 className={styles.sectionTitle}>{t('admin.versions.otherFields', { version })}</h4>
          <dl className={styles.versionFields}>
            {fields.map((field) => (
              <div key={field.label}>
                <dt>{field.label}</dt>
                <dd>{field.before || t('admin.versions.none')}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <Button variant="outline" disabled={pending} onClick={onRestore}>
        {t('admin.versions.restore', { version })}
      </Button>
    </section>
  );
}
