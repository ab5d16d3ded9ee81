import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { LoginBody, RegisterBody } from '@aict/contracts';
import {
  Button,
  EmailField,
  PasswordField,
  UsernameField,
  errorMessage,
  toast,
  useSession,
  useTranslation,
} from '@aict/web-kit';
import { validateLogin, validateRegister, type FieldErrors } from './validate';
import styles from './auth-page.module.css';

export function LoginForm() {
  const { login } = useSession();
  const { t } = useTranslation();
  const [values, setValues] = useState<LoginBody>({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<LoginBody>>({});
  const set = (field: keyof LoginBody) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await validateLogin(values).catch((error: unknown) => {
      toast({
        title: t('shell.auth.loginFailed'),
        description: errorMessage(error),
        variant: 'destructive',
      });
      return null;
    });
    if (!result) return;
    setErrors(result.errors ?? {});
    if (!result.data) return;
    login.mutate(result.data, {
      onSuccess: (user) =>
        toast({
          title: t('shell.auth.loginSuccessful'),
          description: t('shell.auth.welcomeBack', { username: user.username }),
        }),
      onError: (error) =>
        toast({
          title: t('shell.auth.loginFailed'),
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className={styles.form}>
      <UsernameField value={values.username} onChange={set('username')} error={errors.username} />
      <PasswordField
        autoComplete="current-password"
        value={values.password}
        onChange={set('password')}
        error={errors.password}
      />
      <Button type="submit" className={styles.submit} disabled={login.isPending}>
        {login.isPending ? t('shell.auth.loggingIn') : t('shell.auth.login')}
      </Button>
    </form>
  );
}

export function RegisterForm() {
  const { register } = useSession();
  const { t } = useTranslation();
  const [values, setValues] = useState<RegisterBody>({ username: '', email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<RegisterBody>>({});
  const set = (field: keyof RegisterBody) => (event: ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await validateRegister(values).catch((error: unknown) => {
      toast({
        title: t('shell.auth.registrationFailed'),
        description: errorMessage(error),
        variant: 'destructive',
      });
      return null;
    });
    if (!result) return;
    setErrors(result.errors ?? {});
    if (!result.data) return;
    register.mutate(result.data, {
      onSuccess: (user) =>
        toast({
          title: t('shell.auth.registrationSuccessful'),
          description: t('shell.auth.welcomeNew', { username: user.username }),
        }),
      onError: (error) =>
        toast({
          title: t('shell.auth.registrationFailed'),
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className={styles.form}>
      <UsernameField value={values.username} onChange={set('username')} error={errors.username} />
      <EmailField value={values.email} onChange={set('email')} error={errors.email} />
      <PasswordField
        autoComplete="new-password"
        value={values.password}
        onChange={set('password')}
        error={errors.password}
      />
      <Button type="submit" className={styles.submit} disabled={register.isPending}>
        {register.isPending ? t('shell.auth.creatingAccount') : t('shell.auth.createAccount')}
      </Button>
    </form>
  );
}
