import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  CardContent,
  queryKeys,
  usePageTitle,
  useSession,
  useTranslation,
} from '@aict/web-kit';
import styles from './first-run.module.css';

/**
 * A signed-in user who belongs to no workspace: why nothing else shows, and what to do (ask an
 * administrator, with the username to pass on). Check again reloads the user's workspaces.
 */
export function NoWorkspaceScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  usePageTitle(t('firstRun.noWorkspaceTitle'));

  const checkAgain = () => {
    setRefreshing(true);
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.user() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.userWorkspaces() }),
    ]).finally(() => setRefreshing(false));
  };

  return (
    <div className={styles.page}>
      <Card className={styles.card} role="region" aria-labelledby="no-workspace-title">
        <CardContent>
          <h1 id="no-workspace-title" className={styles.title}>
            {t('firstRun.noWorkspaceTitle')}
          </h1>
          <p className={styles.text}>{t('firstRun.noWorkspaceText')}</p>
          <p className={styles.username} data-testid="no-workspace-username">
            {user?.username}
          </p>
          <p className={styles.text}>{t('firstRun.noWorkspaceAfter')}</p>
          <Button className={styles.action} onClick={checkAgain} disabled={refreshing}>
            {t('firstRun.checkAgain')}
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
