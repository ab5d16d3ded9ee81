import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import {
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  Spinner,
  useSession,
  useTranslation,
  useWorkspace,
} from '@aict/web-kit';
import styles from './layout.module.css';

/**
 * Admins only (a super admin or role 'admin' in the current workspace): others see the
 * 'Admin Access Required' card, or go to `redirectTo` when one is given.
 */
export function RequireAdmin({
  children,
  redirectTo,
  message,
}: {
  children: ReactNode;
  redirectTo?: string;
  message?: string;
}) {
  const session = useSession();
  const { t } = useTranslation();
  const { isAdmin, isLoading } = useWorkspace();
  if (session.isLoading || isLoading) {
    return (
      <div className={styles.centered}>
        <Spinner size="lg" />
      </div>
    );
  }
  if (isAdmin) return <>{children}</>;
  if (redirectTo) return <Navigate to={redirectTo} replace />;
  return (
    <div className={styles.page}>
      <Card role="alert" className={styles.notice}>
        <CardHeader>
          <CardTitle>{t('admin.accessRequired')}</CardTitle>
          <CardDescription>{message ?? t('admin.accessRequiredText')}</CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}
