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
} from '@aict/web-kit';
import { ConfirmDialog } from '../../../lib/confirm-dialog';
import { TrashIcon, UploadIcon } from '../../../lib/icons';
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
      title: 'Maximum images reached',
      description: `You can only upload up to ${MAX_REFERENCE_IMAGES} reference images.`,
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
        title: 'Invalid file',
        description: 'Please upload an image file.',
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
            title: 'Upload failed',
            description: serverMessage(error) ?? 'Failed to upload reference image.',
            variant: 'destructive',
          }),
      },
    );
  };

  const failedToRemove = (error: unknown) =>
    toast({ title: 'Failed to remove', description: errorMessage(error), variant: 'destructive' });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Reference Image</CardTitle>
        <CardDescription>
          Images the model uses as a reference when generating ({images.length} of{' '}
          {MAX_REFERENCE_IMAGES}).
        </CardDescription>
      </CardHeader>
      <CardContent>
        {images.length > 0 ? (
          <ul className={styles.references} aria-label="Reference images">
            {images.map((url, index) => (
              <li key={`${index}-${url}`} className={styles.reference}>
                <img src={url} alt={`Reference image ${index + 1}`} loading="lazy" />
                <Button
                  variant="destructive"
                  size="icon"
                  className={styles.referenceRemove}
                  disabled={busy}
                  aria-label={`Remove reference image ${index + 1}`}
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
          <p className={`${styles.muted} ${styles.hint}`}>No reference images yet.</p>
        )}
        <div className={styles.referenceActions}>
          <input
            ref={input}
            type="file"
            accept="image/*"
            className="wk-sr-only"
            tabIndex={-1}
            aria-label="Reference image file"
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
            {upload.isPending ? 'Uploading...' : 'Upload Image'}
          </Button>
          {images.length > 0 && (
            <Button variant="ghost" disabled={busy} onClick={() => setConfirmAll(true)}>
              Remove All
            </Button>
          )}
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title="Remove all reference images?"
        description="Every reference image of this prompt will be deleted."
        confirmLabel="Remove All"
        pendingLabel="Removing..."
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
