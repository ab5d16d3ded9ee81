import { useRef } from 'react';
import { LOGO_MAX_BYTES, LOGO_MIME_TYPES, type Workspace } from '@aict/contracts';
import {
  Button,
  errorMessage,
  isApiError,
  toast,
  useTranslation,
  ImageIcon,
  UploadIcon,
} from '@aict/web-kit';
import { useUploadWorkspaceLogo } from '../api/upload-workspace-logo';
import styles from './settings.module.css';

/** A workspace's logo (as the server serves it) and its upload button (PNG, JPEG or WebP). */
export function WorkspaceLogo({ workspace }: { workspace: Workspace }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadWorkspaceLogo();
  const { t } = useTranslation();
  const UPLOAD_FAILED = t('admin.logo.uploadFailedText');

  const fail = (detail?: string) =>
    toast({
      title: t('admin.logo.uploadFailed'),
      description: detail ? `${UPLOAD_FAILED} ${detail}` : UPLOAD_FAILED,
      variant: 'destructive',
    });

  const onFile = (file: File | undefined) => {
    if (input.current) input.current.value = ''; // the same file can be chosen again
    if (!file) return;
    if (!(LOGO_MIME_TYPES as readonly string[]).includes(file.type)) {
      fail(t('admin.logo.wrongType'));
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      fail(t('admin.logo.tooLarge', { max: LOGO_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    const replacing = Boolean(workspace.logoUrl);
    upload.mutate(
      { workspaceId: workspace.id, file },
      {
        onSuccess: () =>
          toast(
            replacing
              ? {
                  title: t('admin.logo.updated'),
                  description: t('admin.logo.updatedText', { name: workspace.name }),
                }
              : {
                  title: t('admin.logo.uploaded'),
                  description: t('admin.logo.uploadedText', { name: workspace.name }),
                },
          ),
        onError: (error) => fail(isApiError(error) ? errorMessage(error) : undefined),
      },
    );
  };

  return (
    <span className={styles.logoCell}>
      {workspace.logoUrl ? (
        <img
          className={styles.logo}
          src={workspace.logoUrl}
          alt={t('admin.logo.alt', { name: workspace.name })}
        />
      ) : (
        <span className={styles.logoPlaceholder} title={t('admin.logo.none')}>
          <ImageIcon />
          <span className="wk-sr-only">{t('admin.logo.none')}</span>
        </span>
      )}
      <input
        ref={input}
        type="file"
        accept={LOGO_MIME_TYPES.join(',')}
        hidden
        onChange={(event) => onFile(event.target.files?.[0])}
        data-testid={`logo-input-${workspace.id}`}
      />
      <Button
        variant="outline"
        size="sm"
        onClick={() => input.current?.click()}
        disabled={upload.isPending}
        aria-label={t('admin.logo.uploadFor', { name: workspace.name })}
      >
        <UploadIcon />
        <span>{upload.isPending ? t('admin.uploading') : t('admin.logo.upload')}</span>
      </Button>
    </span>
  );
}
