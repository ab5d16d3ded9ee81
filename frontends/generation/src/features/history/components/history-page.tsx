import { useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ContentItem, ContentType, ReviewState } from '@aict/contracts';
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
  ImageDialog,
  Input,
  Label,
  Page,
  Skeleton,
  VisuallyHidden,
  contentItems,
  errorMessage,
  ExportButtons,
  VoiceFlagsBadge,
  groupConversations,
  turnsLabel,
  historyPreview,
  historyTitle,
  relativeTime,
  ReviewActions,
  ReviewBadge,
  ReviewFilter,
  toast,
  useContentsInfinite,
  useDeleteContent,
  useSession,
  useTranslation,
  ImageIcon,
  TextIcon,
  TrashIcon,
} from '@aict/web-kit';
import styles from '../../../lib/generation.module.css';
import { LoadFailedCard } from '../../../lib/load-failed-card';
import { WorkspaceExportButton } from './workspace-export-button';

const SEARCH_DELAY_MS = 300;

function useDebounced(value: string, delay: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/** The words to avoid found in any loaded turn of a conversation row. */
function flagsOf(items: readonly ContentItem[], ids: readonly string[]): string[] {
  const flags = new Set<string>();
  for (const item of items)
    if (ids.includes(item.id)) item.voiceFlags?.forEach((f) => flags.add(f));
  return [...flags];
}

/** /history?type=text|image: the workspace's generated texts or images, newest first. */
export function HistoryPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const type: ContentType = params.get('type') === 'image' ? 'image' : 'text';
  const navigate = useNavigate();
  const { user } = useSession();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [review, setReview] = useState<ReviewState | undefined>(undefined);
  const history = useContentsInfinite({ type, q, review });
  const items = contentItems(history.data);
  // Texts: one row per conversation, grouped on the client (the list API has no thread id).
  const rows =
    type === 'text'
      ? groupConversations(items)
      : items.map((item) => ({ latest: item, turns: 1, ids: [item.id] }));
  const remove = useDeleteContent();
  const [image, setImage] = useState<ContentItem | null>(null);
  const [doomed, setDoomed] = useState<ContentItem | null>(null);
  const searchId = useId();

  function open(item: ContentItem) {
    if (item.contentType === 'image') setImage(item);
    else navigate(`/?conversation=${encodeURIComponent(item.id)}`);
  }

  function confirmDelete() {
    if (!doomed) return;
    remove.mutate(doomed.id, {
      onSuccess: () => {
        setDoomed(null);
        toast({ title: t('contentHistory.deleted'), variant: 'success' });
      },
      onError: (error) =>
        toast({
          title: t('contentHistory.deleteFailed'),
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });
  }

  let body;
  if (history.isError && !history.data) {
    body = (
      <LoadFailedCard
        title={t('contentHistory.fetchFailed')}
        text={t('history.failedText')}
        onRetry={() => void history.refetch()}
      />
    );
  } else if (history.isPending) {
    body = (
      <div aria-busy="true" className={styles.list}>
        <VisuallyHidden role="status">{t('contentHistory.loading')}</VisuallyHidden>
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} className={styles.promptSkeleton} />
        ))}
      </div>
    );
  } else if (items.length === 0) {
    body =
      q || review ? (
        <Card>
          <CardHeader>
            <CardTitle>{t('history.noMatch')}</CardTitle>
            <CardDescription>{t('history.noMatchText')}</CardDescription>
          </CardHeader>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{t('history.empty')}</CardTitle>
            <CardDescription>{t('history.emptyText')}</CardDescription>
          </CardHeader>
        </Card>
      );
  } else {
    body = (
      <>
        <ul
          className={styles.list}
          aria-label={type === 'image' ? t('contentHistory.images') : t('contentHistory.texts')}
        >
          {rows.map(({ latest: item, turns, ids }) => (
            <li key={item.id} className={styles.item}>
              {item.contentType === 'image' ? (
                <img src={item.content} alt="" className={styles.thumb} loading="lazy" />
              ) : (
                <TextIcon />
              )}
              <div className={styles.itemMain}>
                <button type="button" className={styles.itemOpen} onClick={() => open(item)}>
                  {historyTitle(item.title)}
                </button>
                <span className={styles.itemText}>{historyPreview(item)}</span>
                <span className={styles.badges}>
                  <Badge variant="secondary">{item.model}</Badge>
                  <Badge variant="outline">{item.language}</Badge>
                  {item.contentType === 'text' && (
                    <span className={styles.muted}>{turnsLabel(turns)}</span>
                  )}
                  <span className={styles.muted}>{relativeTime(item.createdAt)}</span>
                  <VoiceFlagsBadge flags={flagsOf(items, ids)} />
                  {item.promptVersion !== undefined && (
                    <span
                      className={styles.muted}
                      title={t('contentHistory.versionTitle', { version: item.promptVersion })}
                    >
                      {t('contentHistory.version', { version: item.promptVersion })}
                    </span>
                  )}
                  {/* Last: a comment on a content sent back takes the next line. */}
                  <ReviewBadge review={item.review} />
                </span>
                {item.contentType === 'text' && <ExportButtons item={item} />}
                <ReviewActions item={item} />
              </div>
              {user?.id === item.userId && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={t('contentHistory.deleteName', { name: item.title })}
                  onClick={() => setDoomed(item)}
                >
                  <TrashIcon />
                </Button>
              )}
            </li>
          ))}
        </ul>
        <p className={styles.muted} role="status">
          {rows.length} item(s){q ? ` matching "${q}"` : ''}
        </p>
        {history.hasNextPage && (
          <div className={styles.actions}>
            <Button
              variant="outline"
              onClick={() => void history.fetchNextPage()}
              disabled={history.isFetchingNextPage}
            >
              {history.isFetchingNextPage ? t('contentHistory.loadingMore') : t('history.loadMore')}
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <Page
      title={type === 'image' ? t('contentHistory.imageTitle') : t('contentHistory.textTitle')}
      description={
        type === 'image'
          ? t('contentHistory.imageDescription')
          : t('contentHistory.textDescription')
      }
      actions={<WorkspaceExportButton />}
    >
      <div className={styles.filters}>
        <div className={styles.filterGrow}>
          <Label htmlFor={searchId}>
            {type === 'image' ? <ImageIcon /> : <TextIcon />} {t('contentHistory.search')}
          </Label>
          <Input
            id={searchId}
            type="search"
            placeholder={t('history.searchPlaceholder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <ReviewFilter value={review} onChange={setReview} />
      </div>
      <div className={styles.section}>{body}</div>
      <ImageDialog item={image} onOpenChange={(next) => !next && setImage(null)} />
      <Dialog
        open={doomed !== null}
        onOpenChange={(next) => !next && !remove.isPending && setDoomed(null)}
        role="alertdialog"
        closeButton={false}
      >
        <DialogHeader>
          <DialogTitle>{t('contentHistory.confirmTitle')}</DialogTitle>
          <DialogDescription>
            {t('contentHistory.confirmText', { title: doomed?.title ?? '' })}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => setDoomed(null)} disabled={remove.isPending}>
            {t('common.cancel')}
          </Button>
          <Button variant="destructive" onClick={confirmDelete} disabled={remove.isPending}>
            {remove.isPending ? t('contentHistory.deleting') : t('contentHistory.delete')}
          </Button>
        </DialogFooter>
      </Dialog>
    </Page>
  );
}
