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
  useSession,
  useTranslation,
} from '@aict/web-kit';
import { useSaveLimit, useUsageLimits } from '../api/usage';
import { fromMicros, parseAmount, toMicros } from '../../../lib/money';
import styles from './usage.module.css';

/**
 * The workspace's limits: the monthly budget (the super admin sets it, others read it) and the
 * generations each user may start per minute (workspace admins). Empty means no limit.
 */
export function LimitsCard({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const limits = useUsageLimits(workspaceId);
  const save = useSaveLimit(workspaceId);
  const [budget, setBudget] = useState<string | null>(null);
  const [perMinute, setPerMinute] = useState<string | null>(null);
  if (!limits.data) return null;

  const budgetText =
    budget ??
    (limits.data.monthlyBudgetMicros === null
      ? ''
      : String(fromMicros(limits.data.monthlyBudgetMicros)));
  const perMinuteText = perMinute ?? String(limits.data.requestsPerMinute ?? '');

  const submit = (change: Parameters<typeof save.mutate>[0]) =>
    save.mutate(change, {
      onSuccess: () => toast({ title: t('usage.limitSaved') }),
      onError: (failure) =>
        toast({
          title: t('usage.limitFailed'),
          description: errorMessage(failure),
          variant: 'destructive',
        }),
    });

  const onBudget = (event: FormEvent) => {
    event.preventDefault();
    const value = parseAmount(budgetText, false);
    if (value === undefined)
      return toast({ title: t('usage.invalidAmount'), variant: 'destructive' });
    submit({ budgetMicros: value === null ? null : toMicros(value) });
  };
  const onRate = (event: FormEvent) => {
    event.preventDefault();
    const value = parseAmount(perMinuteText, true);
    if (value === undefined || value === 0)
      return toast({ title: t('usage.invalidAmount'), variant: 'destructive' });
    submit({ perMinute: value });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('usage.limits')}</CardTitle>
        <CardDescription>{t('usage.limitsText')}</CardDescription>
      </CardHeader>
      <CardContent>
        <div className={styles.grid}>
          <form className={styles.limit} onSubmit={onBudget} noValidate>
            <Label htmlFor="usage-budget">{t('usage.monthlyBudget')}</Label>
            <Input
              id="usage-budget"
              inputMode="decimal"
              value={budgetText}
              disabled={!user?.isSuperAdmin}
              onChange={(e) => setBudget(e.target.value)}
            />
            {user?.isSuperAdmin && (
              <Button type="submit" disabled={save.isPending}>
                {t('usage.saveBudget')}
              </Button>
            )}
          </form>
          <form className={styles.limit} onSubmit={onRate} noValidate>
            <Label htmlFor="usage-rate">{t('usage.perMinute')}</Label>
            <Input
              id="usage-rate"
              inputMode="numeric"
              value={perMinuteText}
              onChange={(e) => setPerMinute(e.target.value)}
            />
            <Button type="submit" disabled={save.isPending}>
              {t('usage.saveRate')}
            </Button>
          </form>
        </div>
      </CardContent>
    </Card>
  );
}
