import { useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { CATEGORIES, CONTENT_TYPES, type Category, type ContentType } from '@aict/contracts';
import { SKELETON_COUNT } from '@aict/contracts/constants';
import {
  Button,
  buttonClass,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  Label,
  Page,
  Select,
  VisuallyHidden,
  useTranslation,
  useWorkspace,
  PlusIcon,
} from '@aict/web-kit';
import { RequireAdmin } from '../../../lib/admin-access';
import layout from '../../../lib/layout.module.css';
import { usePrompts } from '@aict/web-kit';
import { usePromptLabels } from './category-badge';
import { PromptCard, PromptCardSkeleton } from './prompt-card';
import styles from './prompts.module.css';

const ALL = 'all';

/**
 * The filters, kept in the URL (?category=&type=) so that back, reload and links keep them.
 * The type goes to the server as contentType; the category filters the answer.
 */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const category = CATEGORIES.find((c) => c === params.get('category')) ?? ALL;
  const type = CONTENT_TYPES.find((t) => t === params.get('type')) ?? ALL;
  const set = (key: 'category' | 'type', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === ALL) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const clear = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('category');
        next.delete('type');
        return next;
      },
      { replace: true },
    );
  return {
    category: category as Category | typeof ALL,
    type: type as ContentType | typeof ALL,
    active: category !== ALL || type !== ALL,
    setCategory: (value: string) => set('category', value),
    setType: (value: string) => set('type', value),
    clear,
  };
}

/** /prompts (SPEC §2, admins only): the workspace's prompt templates. */
export function PromptsPage() {
  return (
    <RequireAdmin>
      <PromptsList />
    </RequireAdmin>
  );
}

function PromptsList() {
  const { currentWorkspaceId } = useWorkspace();
  const { t } = useTranslation();
  const labels = usePromptLabels();
  const filters = useFilters();
  const query = usePrompts(currentWorkspaceId, filters.type === ALL ? undefined : filters.type);
  const categoryId = useId();
  const typeId = useId();

  const prompts = useMemo(
    () =>
      (query.data ?? []).filter(
        (prompt) => filters.category === ALL || prompt.category === filters.category,
      ),
    [query.data, filters.category],
  );

  let content;
  if (currentWorkspaceId === null) {
    content = (
      <Card className={layout.notice}>
        <CardHeader>
          <CardTitle>{t('admin.prompts.noWorkspace')}</CardTitle>
          <CardDescription>{t('admin.prompts.noWorkspaceText')}</CardDescription>
        </CardHeader>
      </Card>
    );
  } else if (query.isError && query.data === undefined) {
    // A failed poll keeps the prompts already shown; only a list never loaded shows this.
    content = (
      <Card role="alert">
        <CardHeader>
          <CardTitle>{t('admin.prompts.fetchFailed')}</CardTitle>
          <CardDescription>{t('admin.prompts.fetchFailedText')}</CardDescription>
        </CardHeader>
        <div className={styles.cardFooter}>
          <Button variant="outline" onClick={() => void query.refetch()}>
            {t('admin.prompts.tryAgain')}
          </Button>
        </div>
      </Card>
    );
  } else if (query.isPending) {
    content = (
      <div aria-busy="true">
        <VisuallyHidden role="status">{t('admin.prompts.loading')}</VisuallyHidden>
        <ul className={styles.grid}>
          {Array.from({ length: SKELETON_COUNT }, (_, index) => (
            <li key={index}>
              <PromptCardSkeleton />
            </li>
          ))}
        </ul>
      </div>
    );
  } else if (prompts.length === 0) {
    content = filters.active ? (
      <Card className={styles.empty}>
        <h2 className={styles.emptyTitle}>{t('admin.prompts.noMatch')}</h2>
        <p className={styles.emptyText}>{t('admin.prompts.noMatchText')}</p>
        <Button variant="outline" onClick={filters.clear}>
          {t('admin.prompts.clearFilters')}
        </Button>
      </Card>
    ) : (
      <Card className={styles.empty}>
        <h2 className={styles.emptyTitle}>{t('admin.prompts.empty')}</h2>
        <p className={styles.emptyText}>{t('admin.prompts.emptyText')}</p>
        <Link to="/prompts/create" className={buttonClass()}>
          <PlusIcon />
          {t('admin.prompts.create')}
        </Link>
      </Card>
    );
  } else {
    content = (
      <ul className={styles.grid} aria-label={t('admin.prompts.list')}>
        {prompts.map((prompt) => (
          <li key={prompt.id}>
            <PromptCard prompt={prompt} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Page
      title={t('admin.prompts.title')}
      description={t('admin.prompts.description')}
      actions={
        <Link to="/prompts/create" className={buttonClass()}>
          <PlusIcon />
          {t('admin.prompts.create')}
        </Link>
      }
    >
      <div className={styles.filters} role="group" aria-label={t('admin.prompts.filters')}>
        <div className={styles.filter}>
          <Label htmlFor={categoryId}>{t('admin.prompts.category')}</Label>
          <Select
            id={categoryId}
            value={filters.category}
            onChange={(event) => filters.setCategory(event.target.value)}
          >
            <option value={ALL}>{t('admin.prompts.allCategories')}</option>
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {labels.category(category)}
              </option>
            ))}
          </Select>
        </div>
        <div className={styles.filter}>
          <Label htmlFor={typeId}>{t('admin.prompts.type')}</Label>
          <Select
            id={typeId}
            value={filters.type}
            onChange={(event) => filters.setType(event.target.value)}
          >
            <option value={ALL}>{t('admin.prompts.allTypes')}</option>
            {CONTENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {labels.contentType(type)}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {content}
    </Page>
  );
}
