import { useState } from 'react';
import type { ContentItem } from '@aict/contracts';
import { Button } from '../ui/button';
import { Dialog, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Badge } from '../ui/feedback';
import { Icon } from '../ui/icon';
import { imageDownloadName, relativeTime } from './content-rules';
import { downloadFile } from './download';

export interface ImageDialogProps {
  /** The image to show; null keeps the dialog closed. */
  item: Pick<ContentItem, 'title' | 'content' | 'model' | 'createdAt'> | null;
  onOpenChange: (open: boolean) => void;
}

/**
 * A history image (SPEC §2): the image, its model, its relative time and 'Download Image',
 * which saves it as imageDownloadName(title). A failed download is only logged (SPEC §8).
 */
export function ImageDialog({ item, onOpenChange }: ImageDialogProps) {
  const [downloading, setDownloading] = useState(false);

  async function download() {
    if (!item) return;
    setDownloading(true);
    try {
      await downloadFile(item.content, imageDownloadName(item.title));
    } catch (error) {
      console.error('Image download failed', error);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Dialog open={item !== null} onOpenChange={onOpenChange}>
      {item && (
        <>
          <DialogHeader>
            <DialogTitle>{item.title}</DialogTitle>
            <DialogDescription>
              <Badge variant="secondary">{item.model}</Badge>{' '}
              <time dateTime={item.createdAt}>{relativeTime(item.createdAt)}</time>
            </DialogDescription>
          </DialogHeader>
          <img
            src={item.content}
            alt={item.title}
            style={{
              display: 'block',
              maxWidth: '100%',
              maxHeight: '70vh',
              margin: '1rem auto',
              borderRadius: 'var(--wk-radius)',
            }}
          />
          <DialogFooter>
            <Button onClick={() => void download()} disabled={downloading}>
              <Icon>
                <path d="M12 3v12" />
                <path d="m7 10 5 5 5-5" />
                <path d="M5 21h14" />
              </Icon>
              Download Image
            </Button>
          </DialogFooter>
        </>
      )}
    </Dialog>
  );
}
