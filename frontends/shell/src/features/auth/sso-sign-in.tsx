import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import type { SESSION_ROUTES } from '@aict/contracts';
import { apiCall, buttonClass, routeQueryKey, routeRef, useTranslation } from '@aict/web-kit';
import styles from './auth-page.module.css';

const oidcStatus = routeRef<typeof SESSION_ROUTES.oidcStatus>('GET', '/api/auth/oidc');
/** A full-page navigation: the auth service answers with a redirect to the provider. */
const OIDC_LOGIN_PATH = '/api/auth/oidc/login';

/**
 * "Sign in with <label>" when single sign-on is on (GET /api/auth/oidc), and why it failed
 * when the provider's answer was refused (the callback sends the browser to /auth?sso=failed).
 */
export function SsoSignIn() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const status = useQuery({
    queryKey: routeQueryKey(oidcStatus),
    queryFn: () => apiCall(oidcStatus),
    retry: false,
    staleTime: Infinity,
  });
  const failed = search.get('sso') === 'failed';
  if (!status.data?.enabled) return null;
  return (
    <div className={styles.sso}>
      {failed && (
        <div role="alert" className={styles.ssoError}>
          <strong>{t('shell.auth.ssoFailed')}</strong>
          <span>{t('shell.auth.ssoFailedText')}</span>
        </div>
      )}
      <a
        className={buttonClass({ variant: 'outline', className: styles.ssoButton })}
        href={OIDC_LOGIN_PATH}
      >
        {t('shell.auth.ssoSignIn', { label: status.data.label ?? '' })}
      </a>
      <p className={styles.ssoOr}>{t('shell.auth.ssoOr')}</p>
    </div>
  );
}
