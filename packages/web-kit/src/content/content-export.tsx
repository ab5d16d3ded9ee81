import { useState } from 'react';
import type { ContentItem } from '@aict/contracts';
import { apiRequest, errorMessage } from '../api/http';
import { useKitTranslation } from '../i18n/use-kit-translation';
import { Button } from '../ui/button';
import { Badge } from '../ui/feedback';
import { DownloadIcon } from '../ui/icons';
import { toast } from '../ui/toast';
import { saveBlob } from './download';

// Issue 18: the export of a conversation (or text thread) and the brand voice badge.

/** The formats of GET /api/contents/:id/export (the contracts' EXPORT_FORMATS). */
const EXPORT_FORMATS = ['md', 'json', 'docx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** GET /api/contents/:id/export?format=…: the URL (the workspace in the query too). */
export function exportUrl(
  contentId: string,
  format: ExportFormat,
  workspaceId?: number | null,
): string {
  const search = new URLSearchParams({ format });
  if (workspaceId != null) search.set('workspaceId', String(workspaceId));
  return `/api/contents/${encodeURIComponent(contentId)}/export?${search.toString()}`;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* first), else null. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // fall through to the plain name
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]?.trim() ?? null;
}

/** Downloads the export and saves it under the server's file name. */
export async function downloadExport(
  contentId: string,
  format: ExportFormat,
  workspaceId?: number | null,
): Promise<void> {
  const res = await apiRequest('GET', exportUrl(contentId, format, workspaceId));
  const blob = await res.blob();
  saveBlob(
    blob,
    dispositionFileName(res.headers.get('content-disposition')) ?? `conversation.${format}`,
  );
}

export interface ExportButtonsProps {
  item: Pick<ContentItem, 'id' | 'title' | 'workspaceId'>;
  className?: string;
}

/** Three small buttons: the conversation as Markdown, JSON or Word (.docx). */
export function ExportButtons({ item, className }: ExportButtonsProps) {
  const { t } = useKitTranslation();
  const [busy, setBusy] = useState<ExportFormat | null>(null);

  async function run(format: ExportFormat) {
    setBusy(format);
    try {
      await downloadExport(item.id, format, item.workspaceId);
    } catch (error) {
      toast({
        title: t('contentWorkflow.exportFailed'),
        description: errorMessage(error),
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <span role="group" aria-label={t('contentWorkflow.export')} className={className}>
      {EXPORT_FORMATS.map((format) => (
        <Button
          key={format}
          variant="ghost"
          size="sm"
          disabled={busy !== null}
          aria-label={t('contentWorkflow.exportAs', {
            title: item.title,
            format: t(`contentWorkflow.format_${format}`),
          })}
          onClick={() => void run(format)}
        >
          <DownloadIcon />
          {t(`contentWorkflow.format_${format}`)}
        </Button>
      ))}
    </span>
  );
}

/** A badge when a text holds words the brand voice avoids (nothing otherwise). */
export function VoiceFlagsBadge({ flags }: { flags: readonly string[] | undefined }) {
  const { t } = useKitTranslation();
  if (!flags || flags.length === 0) return null;
  const text = t('contentWorkflow.voiceFlaggedText', { words: flags.join(', ') });
  return (
    <Badge variant="destructive" title={text} aria-label={text} data-testid="voice-flags">
      {t('contentWorkflow.voiceFlagged')}
    </Badge>
  );
}
