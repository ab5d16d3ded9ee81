import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';
import { useKitTranslation } from '../i18n/use-kit-translation';

/** A spinning indicator announced as `label` (default 'Loading', translated). */
export function Spinner({
  label,
  size = 'md',
  className,
  ...props
}: ComponentProps<'span'> & { label?: string; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useKitTranslation();
  return (
    <span role="status" className={cn('wk-spinner', `wk-spinner--${size}`, className)} {...props}>
      <span className="wk-sr-only">{label ?? t('kit.loading')}</span>
    </span>
  );
}

/** A placeholder block shown while content loads; size it with a class. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden="true" className={cn('wk-skeleton', className)} {...props} />;
}

export type BadgeVariant = 'default' | 'secondary' | 'outline' | 'destructive' | 'success';

export function Badge({
  variant = 'default',
  className,
  ...props
}: ComponentProps<'span'> & { variant?: BadgeVariant }) {
  return <span className={cn('wk-badge', `wk-badge--${variant}`, className)} {...props} />;
}

/** Text for screen readers only. */
export function VisuallyHidden({ className, ...props }: ComponentProps<'span'>) {
  return <span className={cn('wk-sr-only', className)} {...props} />;
}
