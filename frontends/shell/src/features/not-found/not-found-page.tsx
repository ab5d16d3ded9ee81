import { Link } from 'react-router-dom';
import { Card, CardContent, usePageTitle, useTranslation } from '@aict/web-kit';
import styles from './not-found-page.module.css';

/** SPEC §2's not-found screen, with a link home (the shell's route table places it). */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('shell.notFound.pageTitle'));
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardContent>
          <h1 className={styles.title}>
            <span className={styles.icon} aria-hidden="true">
              !
            </span>
            {t('shell.notFound.title')}
          </h1>
          <p className={styles.text}>{t('shell.notFound.text')}</p>
          <Link to="/" className={`wk-btn wk-btn--primary wk-btn--md ${styles.home}`}>
            {t('shell.notFound.home')}
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
