import { Suspense } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { Spinner, useSession } from '@aict/web-kit';
import styles from './route-guards.module.css';

function SessionLoading() {
  return (
    <div className={styles.loading}>
      <Spinner size="lg" label="Loading session" />
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
