import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { Spinner, useSession, useTranslation } from '@aict/web-kit';
import styles from './route-guards.module.css';

function SessionLoading() {
  const { t } = useTranslation();
  return (
    <div className={styles.loading}>
      <Spinner size="lg" label={t('shell.loadingSession')} />
    </div>
  );
}

/** Signed-in users only: a spinner while the session loads, /auth when signed out. */
export function ProtectedRoute() {
  const { user, isLoading } = useSession();
  if (isLoading) return <SessionLoading />;
  if (!user) return <Navigate to="/auth" replace />;
  return (
    <Suspense fallback={<SessionLoading />}>
      <Outlet />
    </Suspense>
  );
}

/** Signed-out users only (the login page): a signed-in user goes to /. */
export function PublicOnlyRoute() {
  const { user, isLoading } = useSession();
  if (isLoading) return <SessionLoading />;
  if (user) return <Navigate to="/" replace />;
  return (
    <Suspense fallback={<SessionLoading />}>
      <Outlet />
    </Suspense>
  );
}

/**
 * For screens open to anyone (the not-found screen): inside the shell's `layout` (sidebar,
 * header) for a signed-in user, on its own for a visitor.
 */
export function ShellWhenSignedIn({ layout }: { layout: ReactNode }) {
  const { user, isLoading } = useSession();
  if (isLoading) return <SessionLoading />;
  return (
    <Suspense fallback={<SessionLoading />}>
      {user ? (
        layout
      ) : (
        <main>
          <Outlet />
        </main>
      )}
    </Suspense>
  );
}
