import { useId, useMemo, useState } from 'react';
import { CATEGORIES, type PromptSummary } from '@aict/contracts';
import { SKELETON_COUNT } from '@aict/contracts/constants';
import {
  Badge,
  Input,
  Label,
  Select,
  Skeleton,
  VisuallyHidden,
  cn,
  useTranslation,
} from '@aict/web-kit';
import styles from './generation.module.css';
import { LoadFailedCard } from './load-failed-card';

const ALL = 'all';

export interface PromptPickerProps {
  prompts: readonly PromptSummary[] | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
  selectedId: string | null;
  onSelect: (prompt: PromptSummary) => void;
}

/** Prompt search, a category filter and selectable prompt cards (SPEC §2). */
export function PromptPicker({
  prompts,
  isPending,
  isError,
  onRetry,
  selectedId,
  onSelect,
}: PromptPickerProps) {
  const [search, setSearch] = useState('');
  const { t } = useTranslation();
  const [category, setCategory] = useState<string>(ALL);
  const searchId = useId();
  const categoryId = useId();

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (prompts ?? []).filter(
      (prompt) =>
        (category === ALL || prompt.category === category) &&
        (!needle ||
          prompt.name.toLowerCase().includes(needle) ||
          (prompt.description ?? '').toLowerCase().includes(needle)),
    );
  }, [prompts, search, category]);

  let list;
  if (isError && prompts === undefined) {
    list = (
      <LoadFailedCard
        title={t('generation.promptsFailed')}
        text={t('generation.promptsFailedText')}
        onRetry={onRetry}
      />
    );
  } else if (isPending) {
    list = (
      <div aria-busy="true" className={styles.promptGrid}>
        <VisuallyHidden role="status">{t('generation.loadingPrompts')}</VisuallyHidden>
        {Array.from({ length: SKELETON_COUNT }, (_, index) => (
          <Skeleton key={index} className={styles.promptSkeleton} />
        ))}
      </div>
    );
  } else if (shown.length === 0) {
    list = (
      <p className={styles.muted}>
        {prompts?.length ? t('generation.noPromptsMatch') : t('generation.noPrompts')}
      </p>
    );
  } else {
    list = (
      <ul className={styles.promptGrid} aria-label={t('generation.prompts')}>
        {shown.map((prompt) => {
          const selected = prompt.id === selectedId;
          return (
            <li key={prompt.id}>
              <button
                type="button"
                className={cn(styles.promptCard, selected && styles.promptCardSelected)}
                aria-pressed={selected}
                onClick={() => onSelect(prompt)}
              >
                <span className={styles.promptName}>{prompt.name}</span>
                {prompt.description && (
                  <span className={styles.promptDescription}>{prompt.description}</span>
                )}
                <span className={styles.badges}>
                  <Badge variant="outline">{prompt.category}</Badge>
                  <Badge variant="secondary">{prompt.model}</Badge>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className={styles.section} aria-labelledby={`${searchId}-heading`}>
      <h2 id={`${searchId}-heading`} className={styles.sectionTitle}>
        {t('generation.choosePrompt')}
      </h2>
      <div className={styles.filters}>
        <div className={styles.filterGrow}>
          <Label htmlFor={searchId}>{t('generation.searchPrompts')}</Label>
          <Input
            id={searchId}
            type="search"
            placeholder={t('generation.searchPromptsPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div className={styles.filter}>
          <Label htmlFor={categoryId}>{t('generation.category')}</Label>
          <Select
            id={categoryId}
            value={category}
            onChange={(event) => setCategory(event.target.value)}
          >
            <option value={ALL}>{t('generation.allCategories')}</option>
            {CATEGORIES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {list}
    </section>
  );
}
