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
  useWorkspace,
} from '@aict/web-kit';
import { RequireAdmin } from '../../../lib/admin-access';
import { PlusIcon } from '../../../lib/icons';
import layout from '../../../lib/layout.module.css';
import { usePrompts } from '../api/get-prompts';
import { CONTENT_TYPE_LABELS } from './category-badge';
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
          <CardTitle>No workspace selected</CardTitle>
          <CardDescription>Select a workspace to see its prompts.</CardDescription>
        </CardHeader>
      </Card>
    );
  } else if (query.isError && query.data === undefined) {
    // A failed poll keeps the prompts already shown; only a list never loaded shows this.
    content = (
      <Card role="alert">
        <CardHeader>
          <CardTitle>Failed to fetch prompts</CardTitle>
          <CardDescription>Check your connection and try again.</CardDescription>
        </CardHeader>
        <div className={styles.cardFooter}>
          <Button variant="outline" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      </Card>
    );
  } else if (query.isPending) {
    content = (
      <div aria-busy="true">
        <VisuallyHidden role="status">Loading prompts</VisuallyHidden>
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
        <h2 className={styles.emptyTitle}>No prompts match your selected filters</h2>
        <p className={styles.emptyText}>Try another category or type.</p>
        <Button variant="outline" onClick={filters.clear}>
          Clear Filters
        </Button>
      </Card>
    ) : (
      <Card className={styles.empty}>
        <h2 className={styles.emptyTitle}>No prompts found</h2>
        <p className={styles.emptyText}>There are no prompts available yet.</p>
        <Link to="/prompts/create" className={buttonClass()}>
          <PlusIcon />
          Create Prompt
        </Link>
      </Card>
    );
  } else {
    content = (
      <ul className={styles.grid} aria-label="Prompts">
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
      title="Prompts"
      description="Reusable prompt templates of this workspace."
      actions={
        <Link to="/prompts/create" className={buttonClass()}>
          <PlusIcon />
          Create Prompt
        </Link>
      }
    >
      <div className={styles.filters} role="group" aria-label="Filter prompts">
        <div className={styles.filter}>
          <Label htmlFor={categoryId}>Category</Label>
          <Select
            id={categoryId}
            value={filters.category}
            onChange={(event) => filters.setCategory(event.target.value)}
          >
            <option value={ALL}>All categories</option>
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </Select>
        </div>
        <div className={styles.filter}>
          <Label htmlFor={typeId}>Type</Label>
          <Select
            id={typeId}
            value={filters.type}
            onChange={(event) => filters.setType(event.target.value)}
          >
            <option value={ALL}>All types</option>
            {CONTENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {CONTENT_TYPE_LABELS[type]}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {content}
    </Page>
  );
}
