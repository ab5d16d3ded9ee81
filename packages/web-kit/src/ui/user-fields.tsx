import { useKitTranslation } from '../i18n/use-kit-translation';
import { TextField, type TextFieldProps } from './field';

// The account fields of the sign-in and sign-up forms (shell) and of the admin's user forms:
// the input's name, type, label and autocomplete are written here once. The forms check the
// values with the @aict/contracts schemas (LoginBody, RegisterBody, CreateUserBody, …) and pass
// each field its message as `error`.

type UserFieldProps = Omit<TextFieldProps, 'label' | 'name' | 'type' | 'autoComplete'> & {
  /** Another label than the default (e.g. the admin's 'New Password'). */
  label?: string;
};

/** `name="username"`; autocomplete 'username' for one's own account, 'off' for another's. */
export function UsernameField({
  label,
  autoComplete = 'username',
  ...props
}: UserFieldProps & { autoComplete?: 'username' | 'off' }) {
  const { t } = useKitTranslation();
  return (
    <TextField
      label={label ?? t('userFields.username')}
      name="username"
      autoComplete={autoComplete}
      {...props}
    />
  );
}

/** `name="email"`, `type="email"`; autocomplete 'email' for one's own account, 'off' for another's. */
export function EmailField({
  label,
  autoComplete = 'email',
  ...props
}: UserFieldProps & { autoComplete?: 'email' | 'off' }) {
  const { t } = useKitTranslation();
  return (
    <TextField
      label={label ?? t('userFields.email')}
      name="email"
      type="email"
      autoComplete={autoComplete}
      {...props}
    />
  );
}

/**
 * `name="password"`, `type="password"`; autocomplete 'current-password' to sign in,
 * 'new-password' where a password is chosen (sign-up, a new user, a reset).
 */
export function PasswordField({
  label,
  ...props
}: UserFieldProps & { autoComplete: 'current-password' | 'new-password' }) {
  const { t } = useKitTranslation();
  return (
    <TextField
      label={label ?? t('userFields.password')}
      name="password"
      type="password"
      {...props}
    />
  );
}
