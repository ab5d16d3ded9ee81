import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { MODELS_BY_CONTENT_TYPE, type ContentItem, type ReviewState } from '@aict/contracts';
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
  ReviewBadge,
  ReviewFilter,
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
  usePrompts,
  useSession,
  useTranslation,
  useUserNames,
  useWorkspace,
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
  /** A prompt template's id; blank for any. */
  promptId: string;
  review: ReviewState | '';
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

/**
 * The filters as the server applies them (prompt template, review state, model, author, and
 * the days from and to inclusive).
 */
export function serverFilter(f: Filters) {
  return {
    model: f.model || undefined,
    userId: f.user || undefined,
    promptId: f.promptId || undefined,
    review: f.review || undefined,
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

/** The grid's smallest cell and its gap, in rem: as `.imageGrid` in generation.module.css. */
const CELL_MIN_REM = 10;
const GAP_REM = 0.75;
/** Rows kept rendered above and below the screen. */
const OVERSCAN_ROWS = 2;
/** The next page is read once the last rendered row is this close to the end. */
const PREFETCH_ROWS = 2;

/**
 * The columns `repeat(auto-fill, minmax(min(100%, 10rem), 1fr))` with a 0.75rem gap makes in
 * a list `width` px wide, and the side of its (square) cells. Unmeasured (0 wide, as in jsdom):
 * one column of 10rem cells.
 */
export function gridLayout(width: number, rem = 16) {
  const gap = GAP_REM * rem;
  const min = CELL_MIN_REM * rem;
  if (!(width > 0)) return { columns: 1, cell: min, gap };
  // auto-fill: as many tracks of the minimum as fit, gaps included (a hair of slack for
  // widths that fit exactly but come out of the division a rounding error short).
  const columns = Math.max(1, Math.floor((width + gap) / (Math.min(width, min) + gap) + 1e-6));
  return { columns, cell: (width - gap * (columns - 1)) / columns, gap };
}

function rootFontSize(): number {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
}

/** /gallery (issue 18): a grid of the workspace's images, page by page, with filters. */
export function GalleryPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { currentWorkspaceId, isAdmin } = useWorkspace();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [filters, setFilters] = useState<Filters>({
    model: '',
    user: '',
    promptId: '',
    review: '',
    from: '',
    to: '',
  });
  // Filtered on the server, across every page of the workspace's images.
  const images = useContentsInfinite({
    type: 'image',
    q,
    limit: PAGE_SIZE,
    ...serverFilter(filters),
  });
  const shown = contentItems(images.data);
  const models = MODELS_BY_CONTENT_TYPE.image;
  const prompts = usePrompts(currentWorkspaceId, 'image');
  const templates = useMemo(
    () => [...(prompts.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    [prompts.data],
  );
  // Usernames for admins (who may list the workspace's users); members name no one else.
  const names = useUserNames({ enabled: isAdmin });
  // The authors seen so far, in the order seen (and the one chosen), so that choosing one
  // keeps the others, and an unnamed author keeps their number.
  const [authors, setAuthors] = useState<string[]>([]);
  useEffect(() => {
    setAuthors((known) => {
      const fresh = [...new Set(shown.map((i) => i.userId))].filter((id) => !known.includes(id));
      return fresh.length === 0 ? known : [...known, ...fresh];
    });
  }, [shown]);
  const nameOf = (id: string) => (isAdmin ? names.data?.get(id) : undefined);
  // The others without a name to show (every other author, for a member) are numbered.
  const unnamed = authors.filter((id) => id !== user?.id && !nameOf(id));
  const authorName = (id: string) => {
    if (id === user?.id) return t('gallery.you');
    const name = nameOf(id);
    if (name) return name;
    const number = unnamed.indexOf(id) + 1;
    return number > 0 ? t('gallery.anotherMemberNumber', { number }) : t('gallery.anotherMember');
  };
  const known =
    filters.user && !authors.includes(filters.user) ? [...authors, filters.user] : authors;
  // You first, then the others by name (numbered ones in number order).
  const users = known
    .map((id) => ({ id, name: authorName(id) }))
    .sort((a, b) =>
      a.id === user?.id
        ? -1
        : b.id === user?.id
          ? 1
          : a.name.localeCompare(b.name, undefined, { numeric: true }),
    );
  const [open, setOpen] = useState<ContentItem | null>(null);
  const ids = { q: useId(), from: useId(), to: useId() };
  const set = (key: Exclude<keyof Filters, 'review'>) => (value: string) =>
    setFilters((current) => ({ ...current, [key]: value }));
  const filtered = q !== '' || Object.values(filters).some((v) => v !== '');
  const { fetchNextPage } = images;
  // Read ahead while scrolling: once at a time (a second call waits for the first).
  const loadMore = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);

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
      <ImageGrid
        items={shown}
        complete={!images.hasNextPage}
        // Not after a failed page: "Load more" below retries it.
        canLoadMore={
          images.hasNextPage && !images.isFetchingNextPage && !images.isFetchNextPageError
        }
        onLoadMore={loadMore}
        onOpen={setOpen}
      />
    );
  }

  return (
    <Page title={t('gallery.title')} description={t('gallery.description')}>
      <div className={styles.filterGrid}>
        <div className={styles.filterWide}>
          <Label htmlFor={ids.q}>{t('gallery.prompt')}</Label>
          <Input
            id={ids.q}
            type="search"
            placeholder={t('gallery.promptPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <FilterSelect
          label={t('gallery.template')}
          value={filters.promptId}
          onChange={set('promptId')}
          options={templates.map((prompt) => ({ value: prompt.id, label: prompt.name }))}
        />
        <FilterSelect
          label={t('gallery.model')}
          value={filters.model}
          onChange={set('model')}
          options={models.map((m) => ({ value: m, label: m }))}
        />
        <FilterSelect
          label={t('gallery.user')}
          value={filters.user}
          onChange={set('user')}
          options={users.map((u) => ({ value: u.id, label: u.name }))}
        />
        <ReviewFilter
          value={filters.review || undefined}
          onChange={(review) => setFilters((current) => ({ ...current, review: review ?? '' }))}
        />
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
          <Button variant="outline" onClick={loadMore} disabled={images.isFetchingNextPage}>
            {images.isFetchingNextPage ? t('gallery.loadingMore') : t('gallery.loadMore')}
          </Button>
        </div>
      )}
      <GalleryDialog item={open} authorName={authorName} onClose={() => setOpen(null)} />
    </Page>
  );
}

interface GridBox {
  /** The list's width and its top from the top of the document, in px. */
  width: number;
  top: number;
  /** The root font size (px per rem). */
  rem: number;
}

/**
 * The images as a window-scrolled virtual grid: only the rows on (and near) the screen are
 * rendered, the rest is padding of their height, so that a workspace of thousands of images
 * stays light. The columns are the ones the stylesheet's auto-fill grid would make in the
 * list's width; a row is as high as a cell is wide. Near the end the next page is read.
 */
function ImageGrid({
  items,
  complete,
  canLoadMore,
  onLoadMore,
  onOpen,
}: {
  items: readonly ContentItem[];
  /** Every page is loaded (the list's size is known). */
  complete: boolean;
  canLoadMore: boolean;
  onLoadMore: () => void;
  onOpen: (item: ContentItem) => void;
}) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLUListElement>(null);
  const [box, setBox] = useState<GridBox>({ width: 0, top: 0, rem: 16 });
  const measure = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const rect = list.getBoundingClientRect();
    const next = { width: rect.width, top: rect.top + window.scrollY, rem: rootFontSize() };
    setBox((current) =>
      current.width === next.width && current.top === next.top && current.rem === next.rem
        ? current
        : next,
    );
  }, []);
  // After every render (before paint): what is above the list (the filters wrapping anew, a
  // language with longer labels) moves it down the page.
  useLayoutEffect(measure);
  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => observer.disconnect();
  }, [measure]);

  const { columns, cell, gap } = gridLayout(box.width, box.rem);
  const rowCount = Math.ceil(items.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => cell,
    gap,
    overscan: OVERSCAN_ROWS,
    scrollMargin: box.top,
  });
  // The rows are as high as the cells are wide: sized anew when the width changes.
  const sized = useRef(cell);
  useLayoutEffect(() => {
    if (sized.current === cell) return;
    sized.current = cell;
    virtualizer.measure();
  }, [virtualizer, cell]);

  const rows = virtualizer.getVirtualItems();
  const firstRow = rows[0];
  const lastRow = rows[rows.length - 1];
  const margin = virtualizer.options.scrollMargin;
  const total = virtualizer.getTotalSize();
  const above = firstRow ? firstRow.start - margin : 0;
  const below = lastRow ? Math.max(0, total - (lastRow.end - margin)) : total;
  const from = firstRow ? firstRow.index * columns : 0;
  const rendered = lastRow ? items.slice(from, (lastRow.index + 1) * columns) : [];

  const lastIndex = lastRow?.index;
  useEffect(() => {
    if (!canLoadMore) return;
    const nearEnd =
      rowCount === 0 || (lastIndex !== undefined && lastIndex >= rowCount - 1 - PREFETCH_ROWS);
    if (nearEnd) onLoadMore();
  }, [canLoadMore, lastIndex, rowCount, onLoadMore]);

  return (
    <ul
      ref={listRef}
      className={styles.imageGrid}
      aria-label={t('gallery.images')}
      style={{
        gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
        paddingTop: above,
        paddingBottom: below,
      }}
    >
      {rendered.map((item, index) => (
        <li
          key={item.id}
          className={styles.imageCell}
          aria-posinset={from + index + 1}
          aria-setsize={complete ? items.length : -1}
        >
          <button
            type="button"
            className={styles.imageButton}
            aria-label={t('gallery.open', { title: historyTitle(item.title) })}
            onClick={() => onOpen(item)}
          >
            <img src={item.content} alt="" loading="lazy" />
          </button>
          <span className={styles.imageReview}>
            <ReviewBadge review={item.review} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A labelled select of one filter, "All" first (blank: no filter). */
function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('gallery.any')}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </div>
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
        {shown.promptVersion !== undefined && (
          <>
            <dt>{t('gallery.promptVersion')}</dt>
            <dd>{t('gallery.version', { version: shown.promptVersion })}</dd>
          </>
        )}
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
        <dt>{t('gallery.review')}</dt>
        <dd className={styles.reviewDetail}>
          <ReviewBadge review={shown.review} />
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
