import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { MODELS_BY_CONTENT_TYPE, type ContentItem } from '@aict/contracts';
import {
  Badge,
  Button,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  Dialog,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  Input,
  Label,
  Page,
  Select,
  Skeleton,
  VisuallyHidden,
  buttonClass,
  contentItems,
  downloadFile,
  historyTitle,
  imageDownloadName,
  relativeTime,
  useContent,
  useContentsInfinite,
  useSession,
  useTranslation,
} from '@aict/web-kit';
import styles from '../../../lib/generation.module.css';
import { LoadFailedCard } from '../../../lib/load-failed-card';

const SEARCH_DELAY_MS = 300;
/** Images per page read (by `_id` pages on the server, as the history). */
const PAGE_SIZE = 24;

function useDebounced(value: string, delay: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

interface Filters {
  model: string;
  user: string;
  /** yyyy-mm-dd, inclusive; blank for none. */
  from: string;
  to: string;
}

/** A day (yyyy-mm-dd, local time) as the instant it starts, `days` later; blank stays blank. */
function dayStart(day: string, days = 0): string | undefined {
  if (!day) return undefined;
  const start = new Date(`${day}T00:00:00`);
  if (Number.isNaN(start.getTime())) return undefined;
  start.setDate(start.getDate() + days);
  return start.toISOString();
}

/** The filters as the server applies them (model, author, and the days from and to inclusive). */
export function serverFilter(f: Filters) {
  return {
    model: f.model || undefined,
    userId: f.user || undefined,
    from: dayStart(f.from),
    to: dayStart(f.to, 1),
  };
}

/** The image generation page with this image's prompt and inputs filled in. */
export function runAgainUrl(item: ContentItem): string | null {
  if (!item.promptId) return null;
  const params = new URLSearchParams({ promptId: item.promptId });
  const inputs = item.metadata.inputs;
  if (inputs && Object.keys(inputs).length > 0) params.set('inputs', JSON.stringify(inputs));
  return `/image-generation?${params.toString()}`;
}

/** /gallery (issue 18): a grid of the workspace's images, page by page, with filters. */
export function GalleryPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [filters, setFilters] = useState<Filters>({ model: '', user: '', from: '', to: '' });
  // Filtered on the server, across every page of the workspace's images.
  const images = useContentsInfinite({
    type: 'image',
    q,
    limit: PAGE_SIZE,
    ...serverFilter(filters),
  });
  const shown = contentItems(images.data);
  const models = MODELS_BY_CONTENT_TYPE.image;
  // The authors seen so far (and the one chosen), so that choosing one keeps the others.
  const [authors, setAuthors] = useState<string[]>([]);
  useEffect(() => {
    setAuthors((known) => {
      const next = new Set([...known, ...shown.map((i) => i.userId)]);
      return next.size === known.length ? known : [...next].sort();
    });
  }, [shown]);
  const users = useMemo(
    () => (filters.user && !authors.includes(filters.user) ? [...authors, filters.user] : authors),
    [authors, filters.user],
  );
  const [open, setOpen] = useState<ContentItem | null>(null);
  const ids = { q: useId(), model: useId(), user: useId(), from: useId(), to: useId() };
  const set = (key: keyof Filters) => (value: string) =>
    setFilters((current) => ({ ...current, [key]: value }));
  const filtered = q !== '' || Object.values(filters).some((v) => v !== '');
  const authorName = (id: string) => (id === user?.id ? t('gallery.you') : id);

  let body;
  if (images.isError && !images.data) {
    body = <LoadFailedCard title={t('gallery.failed')} onRetry={() => void images.refetch()} />;
  } else if (images.isPending) {
    body = (
      <div aria-busy="true" className={styles.imageGrid}>
        <VisuallyHidden role="status">{t('gallery.loading')}</VisuallyHidden>
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} className={styles.promptSkeleton} />
        ))}
      </div>
    );
  } else if (shown.length === 0 && !images.hasNextPage) {
    body = (
      <Card>
        <CardHeader>
          <CardTitle>{filtered ? t('gallery.noMatch') : t('gallery.empty')}</CardTitle>
          <CardDescription>
            {filtered ? t('gallery.noMatchText') : t('gallery.emptyText')}
          </CardDescription>
        </CardHeader>
      </Card>
    );
  } else {
    body = (
      <ul className={styles.imageGrid} aria-label={t('gallery.images')}>
        {shown.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className={styles.imageButton}
              aria-label={t('gallery.open', { title: historyTitle(item.title) })}
              onClick={() => setOpen(item)}
            >
              <img src={item.content} alt="" loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Page title={t('gallery.title')} description={t('gallery.description')}>
      <div className={styles.filters}>
        <div className={styles.filterGrow}>
          <Label htmlFor={ids.q}>{t('gallery.prompt')}</Label>
          <Input
            id={ids.q}
            type="search"
            placeholder={t('gallery.promptPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div>
          <Label htmlFor={ids.model}>{t('gallery.model')}</Label>
          <Select
            id={ids.model}
            value={filters.model}
            onChange={(e) => set('model')(e.target.value)}
          >
            <option value="">{t('gallery.any')}</option>
            {models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor={ids.user}>{t('gallery.user')}</Label>
          <Select id={ids.user} value={filters.user} onChange={(e) => set('user')(e.target.value)}>
            <option value="">{t('gallery.any')}</option>
            {users.map((u) => (
              <option key={u} value={u}>
                {authorName(u)}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor={ids.from}>{t('gallery.from')}</Label>
          <Input
            id={ids.from}
            type="date"
            value={filters.from}
            onChange={(e) => set('from')(e.target.value)}
          />
        </div>
        <div>
          <Label htmlFor={ids.to}>{t('gallery.to')}</Label>
          <Input
            id={ids.to}
            type="date"
            value={filters.to}
            onChange={(e) => set('to')(e.target.value)}
          />
        </div>
      </div>
      <div className={styles.section}>{body}</div>
      {images.hasNextPage && (
        <div className={styles.actions}>
          <Button
            variant="outline"
            onClick={() => void images.fetchNextPage()}
            disabled={images.isFetchingNextPage}
          >
            {images.isFetchingNextPage ? t('gallery.loadingMore') : t('gallery.loadMore')}
          </Button>
        </div>
      )}
      <GalleryDialog item={open} authorName={authorName} onClose={() => setOpen(null)} />
    </Page>
  );
}

function GalleryDialog({
  item,
  authorName,
  onClose,
}: {
  item: ContentItem | null;
  authorName: (id: string) => string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // The list holds the small metadata only: the whole record for the inputs.
  const full = useContent(item?.id);
  const shown = full.data && full.data.id === item?.id ? full.data : item;
  const [size, setSize] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  useEffect(() => setSize(null), [item?.id]);
  if (!shown) return <Dialog open={false} onOpenChange={() => undefined} />;
  const inputs = Object.entries(shown.metadata.inputs ?? {});
  const references = Number(shown.metadata.referenceImages ?? 0);
  const again = runAgainUrl(shown);

  async function download() {
    if (!shown) return;
    setDownloading(true);
    try {
      await downloadFile(shown.content, imageDownloadName(shown.title));
    } catch (error) {
      console.error('Image download failed', error);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogHeader>
        <DialogTitle>{historyTitle(shown.title)}</DialogTitle>
        <DialogDescription>
          <Badge variant="secondary">{shown.model}</Badge>{' '}
          <time dateTime={shown.createdAt}>{relativeTime(shown.createdAt)}</time>
        </DialogDescription>
      </DialogHeader>
      <img
        src={shown.content}
        alt={shown.title}
        onLoad={(e) => setSize(`${e.currentTarget.naturalWidth}×${e.currentTarget.naturalHeight}`)}
        style={{ display: 'block', maxWidth: '100%', maxHeight: '60vh', margin: '1rem auto' }}
      />
      <dl className={styles.details} aria-label={t('gallery.inputs')}>
        <dt>{t('gallery.prompt')}</dt>
        <dd>{shown.title}</dd>
        <dt>{t('gallery.inputs')}</dt>
        <dd>
          {inputs.length === 0 ? (
            t('gallery.noInputs')
          ) : (
            <ul>
              {inputs.map(([name, value]) => (
                <li key={name}>
                  <strong>{name}</strong>: {value}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>{t('gallery.model')}</dt>
        <dd>{shown.model}</dd>
        <dt>{t('gallery.size')}</dt>
        <dd>{size ?? '–'}</dd>
        <dt>{t('gallery.references')}</dt>
        <dd>{references}</dd>
        <dt>{t('gallery.author')}</dt>
        <dd>{authorName(shown.userId)}</dd>
        <dt>{t('gallery.created')}</dt>
        <dd>
          <time dateTime={shown.createdAt}>{new Date(shown.createdAt).toLocaleString()}</time>
        </dd>
      </dl>
      <DialogFooter>
        {again && (
          <Link to={again} className={buttonClass({ variant: 'outline' })}>
            {t('gallery.runAgain')}
          </Link>
        )}
        <Button onClick={() => void download()} disabled={downloading}>
          {t('gallery.download')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
