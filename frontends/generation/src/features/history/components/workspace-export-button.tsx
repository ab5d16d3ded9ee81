import { useState } from 'react';
import {
  Button,
  DownloadIcon,
  errorMessage,
  toast,
  useTranslation,
  useWorkspace,
} from '@aict/web-kit';
import styles from '../../../lib/generation.module.css';
import { downloadWorkspaceExport, type ExportProgress } from '../api/workspace-export';

/**
 * "Export workspace" (issue 18, admins only): downloads the workspace's zip as a stream,
 * showing the contents received out of the total the server announced, then saves it.
 */
export function WorkspaceExportButton() {
  const { t, i18n } = useTranslation();
  const { currentWorkspaceId, isAdmin } = useWorkspace();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  if (!isAdmin || currentWorkspaceId === null) return null;
  const workspaceId = currentWorkspaceId;

  async function run() {
    setProgress({ done: 0, total: null, bytes: 0 });
    try {
      await downloadWorkspaceExport(workspaceId, setProgress);
      toast({ title: t('contentWorkflow.exportWorkspaceDone'), variant: 'success' });
    } catch (error) {
      toast({
        title: t('contentWorkflow.exportWorkspaceFailed'),
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setProgress(null);
    }
  }

  const number = new Intl.NumberFormat(i18n.language);
  const size = (bytes: number) =>
    new Intl.NumberFormat(i18n.language, {
      style: 'unit',
      unit: 'megabyte',
      maximumFractionDigits: 1,
    }).format(bytes / 1_000_000);
  const total = progress?.total ?? null;

  return (
    <div className={styles.actions}>
      <Button
        variant="outline"
        disabled={progress !== null}
        title={t('contentWorkflow.exportWorkspaceText')}
        onClick={() => void run()}
      >
        <DownloadIcon />
        {progress ? t('contentWorkflow.exportingWorkspace') : t('contentWorkflow.exportWorkspace')}
      </Button>
      {progress && (
        <>
          <progress
            aria-label={t('contentWorkflow.exportWorkspace')}
            max={total && total > 0 ? total : undefined}
            value={total && total > 0 ? Math.min(progress.done, total) : undefined}
          />
          <span className={styles.muted} role="status">
            {t('contentWorkflow.exportWorkspaceProgress', {
              done: number.format(progress.done),
              total: total === null ? '?' : number.format(total),
              size: size(progress.bytes),
            })}
          </span>
        </>
      )}
    </div>
  );
}
