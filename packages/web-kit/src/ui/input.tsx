import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn('wk-input', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn('wk-input', 'wk-textarea', className)} {...props} />;
}

/** A native select; give it an accessible name with <Label htmlFor> or aria-label. */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn('wk-input', 'wk-select', className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('wk-label', className)} {...props} />;
}

/** A field's validation message; link it from the field with aria-describedby={id}. */
export function FieldError({ className, children, ...props }: ComponentProps<'p'>) {
  if (!children) return null;
  return (
    <p className={cn('wk-field-error', className)} {...props}>
      {children}
    </p>
  );
}
