import { useRef, useState, type ChangeEvent } from 'react';
import type { Prompt } from '@aict/contracts';
import { MAX_REFERENCE_IMAGES } from '@aict/contracts/constants';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  errorMessage,
  isApiError,
  toast,
  useTranslation,
  TrashIcon,
  UploadIcon,
} from '@aict/web-kit';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { useRemoveReferenceImage } from '../api/remove-reference-image';
import { useClearReferenceImages } from '../api/update-prompt';
import { useUploadReferenceImage } from '../api/upload-reference-image';
import styles from './prompts.module.css';

/** The stored reference images: the list, or the single legacy URL when the list is empty. */
export function referenceImages(prompt: Pick<Prompt, 'referenceImageUrl' | 'referenceImageUrls'>) {
  if (prompt.referenceImageUrls?.length) return prompt.referenceImageUrls;
  return prompt.referenceImageUrl ? [prompt.referenceImageUrl] : [];
}

/** The server's `message` of a failed call, when it sent one. */
function serverMessage(error: unknown): string | null {
  if (!isApiError(error) || !error.body) return null;
  const message = errorMessage(error);
  return message === error.message ? null : message;
}

/**
 * 'Reference Image' (SPEC §2, edit tab of an image prompt on gpt-image-1): upload adds one
 * image (images only, at most 4), each can be removed by its index, 'Remove All' clears them.
 */
export function ReferenceImagesCard({
  prompt,
  workspaceId,
}: {
  prompt: Prompt;
  workspaceId: number | null;
}) {
  const { t } = useTranslation();
  const images = referenceImages(prompt);
  const full = images.length >= MAX_REFERENCE_IMAGES;
  const input = useRef<HTMLInputElement>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const upload = useUploadReferenceImage();
  const remove = useRemoveReferenceImage();
  const clear = useClearReferenceImages();
  const busy = upload.isPending || remove.isPending || clear.isPending;

  const refuseWhenFull = () => {
    if (!full) return false;
    toast({
      title: t('admin.references.maxReached'),
      description: t('admin.references.maxReachedText', { max: MAX_REFERENCE_IMAGES }),
      variant: 'destructive',
    });
    return true;
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file can be picked again
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast({
        title: t('admin.references.invalidFile'),
        description: t('admin.references.invalidFileText'),
        variant: 'destructive',
      });
      return;
    }
    if (refuseWhenFull()) return;
    upload.mutate(
      { id: prompt.id, file, index: images.length, workspaceId },
      {
        onError: (error) =>
          toast({
            title: t('admin.references.uploadFailed'),
            description: serverMessage(error) ?? t('admin.references.uploadFailedText'),
            variant: 'destructive',
          }),
      },
    );
  };

  const failedToRemove = (error: unknown) =>
    toast({
      title: t('admin.references.removeFailed'),
      description: errorMessage(error),
      variant: 'destructive',
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('admin.references.title')}</CardTitle>
        <CardDescription>
          {t('admin.references.description', {
            count: images.length,
            max: MAX_REFERENCE_IMAGES,
          })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {images.length > 0 ? (
          <ul className={styles.references} aria-label={t('admin.references.list')}>
            {images.map((url, index) => (
              <li key={`${index}-${url}`} className={styles.reference}>
                <img
                  src={url}
                  alt={t('admin.references.image', { index: index + 1 })}
                  loading="lazy"
                />
                <Button
                  variant="destructive"
                  size="icon"
                  className={styles.referenceRemove}
                  disabled={busy}
                  aria-label={t('admin.references.removeOne', { index: index + 1 })}
                  onClick={() =>
                    remove.mutate(
                      { id: prompt.id, index, workspaceId },
                      { onError: failedToRemove },
                    )
                  }
                >
                  <TrashIcon />
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <p className={`${styles.muted} ${styles.hint}`}>{t('admin.references.none')}</p>
        )}
        <div className={styles.referenceActions}>
          <input
            ref={input}
            type="file"
            accept="image/*"
            className="wk-sr-only"
            tabIndex={-1}
            aria-label={t('admin.references.file')}
            onChange={onFile}
          />
          <Button
            variant="outline"
            disabled={busy}
            onClick={() => {
              if (!refuseWhenFull()) input.current?.click();
            }}
          >
            <UploadIcon />
            {upload.isPending ? t('admin.uploading') : t('admin.references.upload')}
          </Button>
          {images.length > 0 && (
            <Button variant="ghost" disabled={busy} onClick={() => setConfirmAll(true)}>
              {t('admin.references.removeAll')}
            </Button>
          )}
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title={t('admin.references.confirmTitle')}
        description={t('admin.references.confirmText')}
        confirmLabel={t('admin.references.removeAll')}
        pendingLabel={t('admin.references.removing')}
        pending={clear.isPending}
        onConfirm={() =>
          clear.mutate(
            { id: prompt.id, workspaceId },
            {
              onSuccess: () => setConfirmAll(false),
              onError: (error) => {
                setConfirmAll(false);
                failedToRemove(error);
              },
            },
          )
        }
      />
    </Card>
  );
}
