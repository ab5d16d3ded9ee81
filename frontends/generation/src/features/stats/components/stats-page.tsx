import { Card, CardDescription, CardHeader, CardTitle } from '@aict/web-kit';
import { Page } from '../../../lib/page';
import styles from '../../../lib/page.module.css';

const COUNTS = ['Total Prompts', 'Text Content', 'Images Generated'];

/** Stats (placeholder: the three count cards without numbers; recent items come later). */
export function StatsPage() {
  return (
    <Page title="Stats">
      <div className={styles.grid}>
        {COUNTS.map((label) => (
          <Card key={label}>
            <CardHeader>
              <CardDescription>{label}</CardDescription>
              <CardTitle>–</CardTitle>
            </CardHeader>
          </Card>
        ))}
      </div>
    </Page>
  );
}
