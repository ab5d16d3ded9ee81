import type { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  useTranslation,
} from '@aict/web-kit';

/**
 * A confirmation for a destructive action: focus starts on Cancel, Escape and the backdrop
 * cancel, and neither closes it while the action runs.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel?: string;
  pendingLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const close = (next: boolean) => {
    if (!pending) onOpenChange(next);
  };
  return (
    <Dialog open={open} onOpenChange={close} role="alertdialog" closeButton={false}>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <DialogFooter>
        <Button variant="outline" onClick={() => close(false)} disabled={pending}>
          {t('admin.cancel')}
        </Button>
        <Button variant="destructive" onClick={onConfirm} disabled={pending}>
          {pending ? (pendingLabel ?? t('admin.deleting')) : (confirmLabel ?? t('admin.delete'))}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
