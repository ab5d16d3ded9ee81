import { useState, type FormEvent } from 'react';
import type { User } from '@aict/contracts';
import {
  Button,
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  PasswordField,
  errorMessage,
  fieldErrors,
  toast,
  useTranslation,
} from '@aict/web-kit';
import { ResetPasswordBody, useResetPassword } from '../api/reset-password';
import styles from './settings.module.css';

/** 'Reset Password': a new password for `user`; the button waits for one to be entered. */
export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const reset = useResetPassword();
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && !reset.isPending && onClose()}>
      {user && <ResetPasswordForm key={user.id} user={user} reset={reset} onClose={onClose} />}
    </Dialog>
  );
}

function ResetPasswordForm({
  user,
  reset,
  onClose,
}: {
  user: User;
  reset: ReturnType<typeof useResetPassword>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      toast({
        title: t('admin.resetPassword.missing'),
        description: t('admin.resetPassword.missingText'),
        variant: 'destructive',
      });
      return;
    }
    const parsed = ResetPasswordBody.safeParse({ password });
    if (!parsed.success) {
      setError(fieldErrors(parsed.error.issues).password);
      return;
    }
    reset.mutate(
      { id: user.id, password: parsed.data.password },
      {
        onSuccess: () => {
          toast({
            title: t('admin.resetPassword.done'),
            description: t('admin.resetPassword.doneText', { name: user.username }),
          });
          onClose();
        },
        onError: (failure) =>
          toast({
            title: t('admin.resetPassword.failed'),
            description: errorMessage(failure),
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogHeader>
        <DialogTitle>{t('admin.resetPassword.title')}</DialogTitle>
        <DialogDescription>
          {t('admin.resetPassword.text', { name: user.username })}
        </DialogDescription>
      </DialogHeader>
      <div className={styles.form}>
        <PasswordField
          label={t('admin.resetPassword.newPassword')}
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={error}
        />
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={reset.isPending}>
          {t('admin.cancel')}
        </Button>
        <Button type="submit" disabled={!password || reset.isPending}>
          {reset.isPending ? t('admin.resetPassword.pending') : t('admin.resetPassword.title')}
        </Button>
      </DialogFooter>
    </form>
  );
}
