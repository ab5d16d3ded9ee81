import { CATEGORIES, type Category, type ContentType } from '@aict/contracts';
import { Badge, cn, useTranslation } from '@aict/web-kit';
import styles from './prompts.module.css';

/** Display names of categories and content types in the chosen language (values stay as stored). */
export function usePromptLabels() {
  const { t } = useTranslation();
  return {
    category: (category: string) =>
      (CATEGORIES as readonly string[]).includes(category)
        ? t(`admin.category_${category as Category}`)
        : category,
    contentType: (contentType: ContentType) => t(`admin.contentType_${contentType}`),
  };
}

/** The category in its colour (SPEC §2: Marketing, Technical, Creative, Business). */
export function CategoryBadge({ category }: { category: Category }) {
  const labels = usePromptLabels();
  return (
    <Badge variant="outline" className={cn(styles.category, styles[category])}>
      {labels.category(category)}
    </Badge>
  );
}

export function ContentTypeBadge({ contentType }: { contentType: ContentType }) {
  const labels = usePromptLabels();
  return <Badge variant="secondary">{labels.contentType(contentType)}</Badge>;
}
