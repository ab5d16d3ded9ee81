import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { CATEGORIES, STATS_ITEMS, type ContentItem } from '@aict/contracts';
import {
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ImageDialog,
  Label,
  Page,
  Select,
  Skeleton,
  apiJson,
  buttonClass,
  contentItems,
  historyPreview,
  historyTitle,
  relativeTime,
  ReviewStateCounts,
  useContentsInfinite,
  useSession,
  useStats,
  useWorkspace,
  useTranslation,
  CopyIcon,
  EditIcon,
  EyeIcon,
  PlayIcon,
} from '@aict/web-kit';
import { copyToClipboard } from '../../../lib/clipboard';
import { usePrompts } from '@aict/web-kit';
import { canEditPrompt } from '@aict/web-kit';
import styles from '../../../lib/generation.module.css';
import { MyUsageSection } from './my-usage';

/** A content's whole text (history lists carry a preview only). */
const fullText = async (id: string) =>
  (await apiJson<ContentItem>('GET', `/api/contents/${encodeURIComponent(id)}`)).content;

const ALL = 'all';

function Count({ label, value }: { label: string; value: number | undefined }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <CardDescription>{label}</CardDescription>
        <CardTitle
          className={styles.count}
          aria-label={t('stats.countLabel', { label, value: value ?? t('stats.loading') })}
        >
          {value ?? '–'}
        </CardTitle>
      </CardHeader>
      <CardContent />
    </Card>
  );
}

function SectionHeader({
  title,
  what,
  id,
  to,
}: {
  title: string;
  /** What 'View All' leads to (its accessible name). */
  what: string;
  id: string;
  to: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={styles.sectionHeader}>
      <h2 id={id} className={styles.sectionTitle}>
        {title}
      </h2>
      <Link to={to} className={styles.viewAll} aria-label={t('stats.viewAllOf', { what })}>
        {t('stats.viewAll')}
      </Link>
    </div>
  );
}

function RecentPrompts() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { currentWorkspaceId, isAdmin } = useWorkspace();
  const prompts = usePrompts(currentWorkspaceId);
  const [category, setCategory] = useState(ALL);
  const id = useId();
  const shown = (prompts.data ?? [])
    .filter((prompt) => category === ALL || prompt.category.toLowerCase() === category)
    .slice(0, STATS_ITEMS.prompts);
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <SectionHeader
        title={t('stats.recentPrompts')}
        what={t('stats.prompts')}
        id={`${id}-title`}
        to="/prompts"
      />
      <div className={styles.filter}>
        <Label htmlFor={id}>{t('stats.category')}</Label>
        <Select id={id} value={category} onChange={(event) => setCategory(event.target.value)}>
          <option value={ALL}>{t('stats.all')}</option>
          {CATEGORIES.map((name) => (
            <option key={name} value={name.toLowerCase()}>
              {name}
            </option>
          ))}
        </Select>
      </div>
      {prompts.isPending && currentWorkspaceId !== null ? (
        <Skeleton className={styles.promptSkeleton} />
      ) : shown.length === 0 ? (
        <p className={styles.muted}>{t('stats.noPrompts')}</p>
      ) : (
        <ul className={styles.list} aria-label={t('stats.recentPromptsList')}>
          {shown.map((prompt) => (
            <li key={prompt.id} className={styles.item}>
              <div className={styles.itemMain}>
                <span className={styles.promptName}>{prompt.name}</span>
                {prompt.description && (
                  <span className={styles.itemText}>{prompt.description}</span>
                )}
                <span className={styles.badges}>
                  <Badge variant="outline">{prompt.category}</Badge>
                  <Badge variant="secondary">{prompt.contentType}</Badge>
                </span>
              </div>
              <div className={styles.actions}>
                {/* 'Edit' only for who may edit it; others open the read-only page as 'View' */}
                {canEditPrompt(user, prompt, { isAdmin, currentWorkspaceId }) ? (
                  <Link
                    to={`/prompts/${encodeURIComponent(prompt.id)}`}
                    className={buttonClass({ variant: 'outline', size: 'sm' })}
                    aria-label={t('stats.editName', { name: prompt.name })}
                  >
                    <EditIcon />
                    {t('stats.edit')}
                  </Link>
                ) : (
                  <Link
                    to={`/prompts/${encodeURIComponent(prompt.id)}`}
                    className={buttonClass({ variant: 'outline', size: 'sm' })}
                    aria-label={t('stats.viewName', { name: prompt.name })}
                  >
                    <EyeIcon />
                    {t('stats.view')}
                  </Link>
                )}
                <Link
                  to={`/${prompt.contentType === 'image' ? 'image' : 'text'}-generation?promptId=${encodeURIComponent(prompt.id)}`}
                  className={buttonClass({ size: 'sm' })}
                  aria-label={t('stats.runName', { name: prompt.name })}
                >
                  <PlayIcon />
                  {t('stats.run')}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RecentText() {
  const { t } = useTranslation();
  const id = useId();
  const texts = useContentsInfinite({ type: 'text', limit: STATS_ITEMS.text });
  const items = contentItems(texts.data).slice(0, STATS_ITEMS.text);
  return (
    <section className={styles.section} aria-labelledby={id}>
      <SectionHeader
        title={t('stats.recentText')}
        what={t('stats.textContentWhat')}
        id={id}
        to="/history?type=text"
      />
      {texts.isPending && texts.fetchStatus !== 'idle' ? (
        <Skeleton className={styles.promptSkeleton} />
      ) : items.length === 0 ? (
        <p className={styles.muted}>{t('stats.noText')}</p>
      ) : (
        <ul className={styles.list} aria-label={t('stats.recentTextList')}>
          {items.map((item) => (
            <li key={item.id} className={styles.item}>
              <div className={styles.itemMain}>
                <span className={styles.promptName}>{historyTitle(item.title)}</span>
                <span className={styles.itemText}>{historyPreview(item)}</span>
                <span className={styles.badges}>
                  <Badge variant="secondary">{item.model}</Badge>
                  <Badge variant="outline">{item.language}</Badge>
                  <span className={styles.muted}>{relativeTime(item.createdAt)}</span>
                </span>
              </div>
              <button
                type="button"
                className={buttonClass({ variant: 'ghost', size: 'icon' })}
                aria-label={t('stats.copyName', { name: item.title })}
                // Lists carry an 80-character preview: copy the whole text.
                onClick={() => void copyToClipboard(() => fullText(item.id))}
              >
                <CopyIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RecentImages() {
  const { t } = useTranslation();
  const id = useId();
  const images = useContentsInfinite({ type: 'image', limit: STATS_ITEMS.images });
  const items = contentItems(images.data).slice(0, STATS_ITEMS.images);
  const [open, setOpen] = useState<ContentItem | null>(null);
  return (
    <section className={styles.section} aria-labelledby={id}>
      <SectionHeader
        title={t('stats.recentImages')}
        what={t('stats.imagesWhat')}
        id={id}
        to="/history?type=image"
      />
      {images.isPending && images.fetchStatus !== 'idle' ? (
        <Skeleton className={styles.promptSkeleton} />
      ) : items.length === 0 ? (
        <p className={styles.muted}>{t('stats.noImages')}</p>
      ) : (
        <ul className={styles.imageGrid} aria-label={t('stats.recentImagesList')}>
          {items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className={styles.imageButton}
                aria-label={t('stats.openName', { name: item.title })}
                onClick={() => setOpen(item)}
              >
                <img src={item.content} alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <ImageDialog item={open} onOpenChange={(next) => !next && setOpen(null)} />
    </section>
  );
}

/** /stats (SPEC §2): three counts, the user's own month (issue 14) and the recent prompts, texts and images. */
export function StatsPage() {
  const { t } = useTranslation();
  const stats = useStats();
  return (
    <Page title={t('stats.title')}>
      <div className={styles.countGrid}>
        <Count label={t('stats.totalPrompts')} value={stats.data?.totalPrompts} />
        <Count label={t('stats.textContent')} value={stats.data?.textContent} />
        <Count label={t('stats.imagesGenerated')} value={stats.data?.imagesGenerated} />
      </div>
      <ReviewStateCounts counts={stats.data?.reviews} />
      <MyUsageSection />
      <RecentPrompts />
      <RecentText />
      <RecentImages />
    </Page>
  );
}
