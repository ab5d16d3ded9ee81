import type { Category, ContentType } from '@aict/contracts';
import { Badge, cn } from '@aict/web-kit';
import styles from './prompts.module.css';

/** The category in its colour (SPEC §2: Marketing, Technical, Creative, Business). */
export function CategoryBadge({ category }: { category: Category }) {
  return (
    <Badge variant="outline" className={cn(styles.category, styles[category])}>
      {category}
    </Badge>
  );
}

export const CONTENT_TYPE_LABELS: Record<ContentType, string> = { text: 'Text', image: 'Image' };

export function ContentTypeBadge({ contentType }: { contentType: ContentType }) {
  return <Badge variant="secondary">{CONTENT_TYPE_LABELS[contentType]}</Badge>;
}
