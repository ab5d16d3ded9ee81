import { useId, type ComponentProps, type ReactNode } from 'react';
import { FieldError, Input, Label, localizeValidationMessage } from '@aict/web-kit';
import styles from './settings.module.css';

/** A labelled input with its validation message (linked through aria-describedby). */
export function TextField({
  label,
  error,
  hint,
  ...input
}: Omit<ComponentProps<'input'>, 'id'> & { label: string; error?: string; hint?: ReactNode }) {
  const id = useId();
  const describedBy = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div className={styles.field}>
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

type Issues = ReadonlyArray<{ path: PropertyKey[]; message: string }>;

/** The first message of each field of a failed schema parse, in the chosen language. */
export function fieldErrors(issues: Issues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues)
    errors[String(issue.path[0] ?? '')] ??= localizeValidationMessage(issue.message);
  return errors;
}
