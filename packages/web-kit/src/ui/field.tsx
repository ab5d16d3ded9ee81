import { useId, type ComponentProps, type ReactNode } from 'react';
import { FieldError, Input, Label } from './input';

export type TextFieldProps = Omit<ComponentProps<'input'>, 'id'> & {
  label: string;
  /** The validation message, linked from the input through aria-describedby. */
  error?: string;
  /** A help text below the input, linked the same way. */
  hint?: ReactNode;
};

/** A labelled input with its hint and validation message (both linked through aria-describedby). */
export function TextField({ label, error, hint, ...input }: TextFieldProps) {
  const id = useId();
  const describedBy = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div className="wk-field">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="wk-field-hint">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}
