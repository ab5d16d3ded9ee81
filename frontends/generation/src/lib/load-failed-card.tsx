import {
  Button,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  useTranslation,
} from '@aict/web-kit';
import styles from './generation.module.css';

/** What a list shows when it could not be loaded: why, and Try again. */
export function LoadFailedCard({
  title,
  text,
  onRetry,
}: {
  title: string;
  text?: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card role="alert">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {text && <CardDescription>{text}</CardDescription>}
      </CardHeader>
      <div className={styles.cardBody}>
        <Button variant="outline" onClick={onRetry}>
          {t('common.tryAgain')}
        </Button>
      </div>
    </Card>
  );
}
