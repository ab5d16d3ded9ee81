import {
  useEffect,
  useRef,
  useSyncExternalStore,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
} from 'react';
import { TOAST } from '@aict/contracts/constants';
import { cn } from '../lib/cn';
import { useKitTranslation } from '../i18n/use-kit-translation';

// Toasts (SPEC §9): one visible at a time (a new one replaces the old), closing after 5000 ms,
// swipe right past 50 px to dismiss, F8 focuses the region. The store lives in this module;
// web-kit is a federation singleton, so a toast raised by any remote shows in the shell.

export type ToastVariant = 'default' | 'success' | 'destructive';

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Milliseconds before it closes; default 5000. */
  duration?: number;
  /** An extra control (e.g. an undo button) shown beside the text. */
  action?: ReactNode;
}

export interface ToastItem extends ToastOptions {
  id: string;
}

let toasts: ToastItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();

function setToasts(next: ToastItem[]) {
  toasts = next;
  listeners.forEach((listener) => listener());
}

/** Shows a toast (replacing the visible one); returns a handle to close or change it. */
export function toast(options: ToastOptions) {
  const id = `toast-${++counter}`;
  setToasts([{ ...options, id }, ...toasts].slice(0, TOAST.limit));
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (next: ToastOptions) =>
      setToasts(toasts.map((item) => (item.id === id ? { ...item, ...next, id } : item))),
  };
}

/** Closes one toast, or all of them when no id is given. */
export function dismissToast(id?: string) {
  setToasts(id === undefined ? [] : toasts.filter((item) => item.id !== id));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The visible toasts and the functions to raise and close them. */
export function useToast() {
  const current = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  return { toasts: current, toast, dismiss: dismissToast };
}

function ToastView({ item }: { item: ToastItem }) {
  const { t } = useKitTranslation();
  const ref = useRef<HTMLLIElement>(null);
  const remaining = useRef(item.duration ?? TOAST.durationMs);
  const timer = useRef<{ id: number; startedAt: number } | null>(null);
  const swipe = useRef<{ x: number; dx: number } | null>(null);

  const pause = () => {
    if (!timer.current) return;
    window.clearTimeout(timer.current.id);
    remaining.current -= Date.now() - timer.current.startedAt;
    timer.current = null;
  };
  const resume = () => {
    if (timer.current || !Number.isFinite(remaining.current)) return;
    timer.current = {
      id: window.setTimeout(() => dismissToast(item.id), Math.max(remaining.current, 0)),
      startedAt: Date.now(),
    };
  };
  useEffect(() => {
    resume();
    return pause; // the timer belongs to this toast only: set once, cleared on unmount
  }, []);

  const setSwipe = (dx: number) => ref.current?.style.setProperty('--wk-swipe-x', `${dx}px`);
  const onPointerDown = (event: ReactPointerEvent) => {
    if (event.button !== 0 || (event.target as HTMLElement).closest('button, a')) return;
    swipe.current = { x: event.clientX, dx: 0 };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    if (!swipe.current) return;
    swipe.current.dx = Math.max(0, event.clientX - swipe.current.x); // right only
    setSwipe(swipe.current.dx);
  };
  const onPointerUp = () => {
    if (!swipe.current) return;
    const { dx } = swipe.current;
    swipe.current = null;
    if (dx > TOAST.swipeThresholdPx) dismissToast(item.id);
    else setSwipe(0);
  };

  const variant = item.variant ?? 'default';
  return (
    <li
      ref={ref}
      className={cn('wk-toast', `wk-toast--${variant}`)}
      role={variant === 'destructive' ? 'alert' : 'status'}
      aria-atomic="true"
      tabIndex={0}
      onPointerEnter={pause}
      onPointerLeave={resume}
      onFocus={pause}
      onBlur={resume}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={(event) => {
        if (event.key === 'Escape') dismissToast(item.id);
      }}
    >
      <div className="wk-toast__text">
        {item.title && <div className="wk-toast__title">{item.title}</div>}
        {item.description && <div className="wk-toast__description">{item.description}</div>}
      </div>
      {item.action}
      <button
        type="button"
        className="wk-toast__close"
        aria-label={t('kit.close')}
        onClick={() => dismissToast(item.id)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

/** Renders the toasts; mount once, at the root of the app. */
export function Toaster() {
  const { t } = useKitTranslation();
  const { toasts: current } = useToast();
  const viewport = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === TOAST.hotkey) {
        event.preventDefault();
        viewport.current?.focus();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <section
      className="wk-toast-region"
      aria-label={t('kit.notifications', { hotkey: TOAST.hotkey })}
    >
      <ol ref={viewport} className="wk-toast-viewport" tabIndex={-1}>
        {current.map((item) => (
          <ToastView key={item.id} item={item} />
        ))}
      </ol>
    </section>
  );
}
