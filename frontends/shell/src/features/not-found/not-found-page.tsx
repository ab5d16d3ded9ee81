import { Card, CardContent, usePageTitle } from '@aict/web-kit';
import styles from './not-found-page.module.css';

export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <main className={styles.page}>
      <Card className={styles.card}>
        <CardContent>
          <h1 className={styles.title}>
            <span className={styles.icon} aria-hidden="true">
              !
            </span>
            404 Page Not Found
          </h1>
          <p className={styles.text}>Did you forget to add the page to the router?</p>
        </CardContent>
      </Card>
    </main>
  );
}
