import { useState, type FormEvent } from 'react';
import type { User } from '@aict/contracts';
import {
  Button,
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  errorMessage,
  toast,
} from '@aict/web-kit';
import { ResetPasswordBody, useResetPassword } from '../api/reset-password';
import { fieldErrors, TextField } from './field';
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
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      toast({
        title: 'Missing Password',
        description: 'Please enter a new password.',
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
            title: 'Password Reset',
            description: `The password of ${user.username} has been reset.`,
          });
          onClose();
        },
        onError: (failure) =>
          toast({
            title: 'Failed to reset password',
            description: errorMessage(failure),
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogHeader>
        <DialogTitle>Reset Password</DialogTitle>
        <DialogDescription>
          Set a new password for {user.username}. Their current sessions end.
        </DialogDescription>
      </DialogHeader>
      <div className={styles.form}>
        <TextField
          label="New Password"
          name="password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={error}
        />
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onClose} disabled={reset.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!password || reset.isPending}>
          {reset.isPending ? 'Resetting...' : 'Reset Password'}
        </Button>
      </DialogFooter>
    </form>
  );
}
