import { useState, type FormEvent } from 'react';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  Label,
  errorMessage,
  toast,
  useTranslation,
} from '@aict/web-kit';
import { useSaveUserCap, useUsageLimits } from '../api/usage';
import { parseAmount, toMicros, useMoney } from '../../../lib/money';
import styles from './usage.module.css';

/**
 * The monthly caps per user (workspace admins): a user, an amount in dollars (empty removes
 * the cap), and the caps set so far. `users` are the ids the month already names.
 */
export function UserCapsCard({
  workspaceId,
  users,
  currency,
}: {
  workspaceId: number;
  users: string[];
  currency: string;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const limits = useUsageLimits(workspaceId);
  const save = useSaveUserCap(workspaceId);
  const [userId, setUserId] = useState('');
  const [amount, setAmount] = useState('');
  if (!limits.data) return null;
  const caps = Object.entries(limits.data.userCaps).sort(([a], [b]) => a.localeCompare(b));
  const known = [...new Set([...users, ...caps.map(([id]) => id)])].sort();

  const submit = (change: { userId: string; capMicros: number | null }) =>
    save.mutate(change, {
      onSuccess: () => toast({ title: t('usage.limitSaved') }),
      onError: (failure) =>
        toast({
          title: t('usage.limitFailed'),
          description: errorMessage(failure),
          variant: 'destructive',
        }),
    });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const user = userId.trim();
    if (!user) return toast({ title: t('usage.capUserMissing'), variant: 'destructive' });
    const value = parseAmount(amount);
    if (value === undefined)
      return toast({ title: t('usage.invalidAmount'), variant: 'destructive' });
    submit({ userId: user, capMicros: value === null ? null : toMicros(value) });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('usage.userCaps')}</CardTitle>
        <CardDescription>{t('usage.userCapsText')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form className={styles.limit} onSubmit={onSubmit} noValidate>
          <Label htmlFor="usage-cap-user">{t('usage.capUser')}</Label>
          <Input
            id="usage-cap-user"
            list="usage-cap-users"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
          />
          <datalist id="usage-cap-users">
            {known.map((id) => (
              <option key={id} value={id} />
            ))}
          </datalist>
          <Label htmlFor="usage-cap-amount">{t('usage.capAmount')}</Label>
          <Input
            id="usage-cap-amount"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <Button type="submit" disabled={save.isPending}>
            {t('usage.saveCap')}
          </Button>
        </form>
        {caps.length === 0 ? (
          <p>{t('usage.noCaps')}</p>
        ) : (
          <ul aria-label={t('usage.userCaps')}>
            {caps.map(([id, micros]) => (
              <li key={id}>
                {id}: {money(micros, currency)}{' '}
                <Button
                  type="button"
                  variant="outline"
                  disabled={save.isPending}
                  onClick={() => submit({ userId: id, capMicros: null })}
                >
                  {t('usage.removeCap', { user: id })}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
