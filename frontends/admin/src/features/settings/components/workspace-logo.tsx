import { useRef } from 'react';
import { LOGO_MAX_BYTES, LOGO_MIME_TYPES, type Workspace } from '@aict/contracts';
import { Button, errorMessage, isApiError, toast } from '@aict/web-kit';
import { ImageIcon, UploadIcon } from '../../../lib/icons';
import { useUploadWorkspaceLogo } from '../api/upload-workspace-logo';
import styles from './settings.module.css';

const UPLOAD_FAILED = 'Failed to upload workspace logo.';

/** A workspace's logo (as the server serves it) and its upload button (PNG, JPEG or WebP). */
export function WorkspaceLogo({ workspace }: { workspace: Workspace }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadWorkspaceLogo();

  const fail = (detail?: string) =>
    toast({
      title: 'Upload Failed',
      description: detail ? `${UPLOAD_FAILED} ${detail}` : UPLOAD_FAILED,
      variant: 'destructive',
    });

  const onFile = (file: File | undefined) => {
    if (input.current) input.current.value = ''; // the same file can be chosen again
    if (!file) return;
    if (!(LOGO_MIME_TYPES as readonly string[]).includes(file.type)) {
      fail('Use a PNG, JPEG or WebP image.');
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      fail(`The image must be at most ${LOGO_MAX_BYTES / 1024 / 1024} MB.`);
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
                  title: 'Logo Updated',
                  description: `The logo of ${workspace.name} has been replaced.`,
                }
              : { title: 'Logo Uploaded', description: `${workspace.name} now has a logo.` },
          ),
        onError: (error) => fail(isApiError(error) ? errorMessage(error) : undefined),
      },
    );
  };

  return (
    <span className={styles.logoCell}>
      {workspace.logoUrl ? (
        <img className={styles.logo} src={workspace.logoUrl} alt={`${workspace.name} logo`} />
      ) : (
        <span className={styles.logoPlaceholder} title="No logo">
          <ImageIcon />
          <span className="wk-sr-only">No logo</span>
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
        aria-label={`Upload logo for ${workspace.name}`}
      >
        <UploadIcon />
        <span>{upload.isPending ? 'Uploading...' : 'Upload'}</span>
      </Button>
    </span>
  );
}
