import {
  createContext,
  useContext,
  useId,
  useLayoutEffect,
  useRef,
  type ComponentProps,
  type ReactNode,
} from 'react';
import { cn } from '../lib/cn';
import { useKitTranslation } from '../i18n/use-kit-translation';

// A modal on the native <dialog>: showModal() traps focus, makes the page inert, closes on
// Escape and restores focus; a click on the backdrop closes it too. No script-injected styles.

interface DialogIds {
  titleId: string;
  descriptionId: string;
}
const DialogContext = createContext<DialogIds | null>(null);

export interface DialogProps extends Omit<ComponentProps<'dialog'>, 'open'> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'center' (default) or 'left' (a drawer along the left edge). */
  side?: 'center' | 'left';
  /** Show the top-right close button (default true). */
  closeButton?: boolean;
  children?: ReactNode;
}

export function Dialog({
  open,
  onOpenChange,
  side = 'center',
  closeButton = true,
  className,
  children,
  ...props
}: DialogProps) {
  const { t } = useKitTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const pressedOnBackdrop = useRef(false);
  const baseId = useId();
  const ids = { titleId: `${baseId}-title`, descriptionId: `${baseId}-description` };
  const named = props['aria-label'] !== undefined || props['aria-labelledby'] !== undefined;

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', ''); // environments without showModal (jsdom)
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <DialogContext.Provider value={ids}>
      <dialog
        ref={ref}
        className={cn('wk-dialog', `wk-dialog--${side}`, className)}
        aria-labelledby={named ? undefined : ids.titleId}
        aria-describedby={ids.descriptionId}
        onCancel={(event) => {
          event.preventDefault(); // Escape: let the owner decide
          onOpenChange(false);
        }}
        onPointerDown={(event) => {
          pressedOnBackdrop.current = event.target === event.currentTarget;
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget && pressedOnBackdrop.current)
            onOpenChange(false);
        }}
        {...props}
      >
        {open && (
          <div className="wk-dialog__body">
            {children}
            {closeButton && (
              <button
                type="button"
                className="wk-dialog__close"
                aria-label={t('kit.close')}
                onClick={() => onOpenChange(false)}
              >
                <span aria-hidden="true">×</span>
              </button>
            )}
          </div>
        )}
      </dialog>
    </DialogContext.Provider>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('wk-dialog__header', className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<'h2'>) {
  const ids = useContext(DialogContext);
  return <h2 id={ids?.titleId} className={cn('wk-dialog__title', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<'p'>) {
  const ids = useContext(DialogContext);
  return (
    <p id={ids?.descriptionId} className={cn('wk-dialog__description', className)} {...props} />
  );
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('wk-dialog__footer', className)} {...props} />;
}
