import { useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { ContentItem, ContentType } from '@aict/contracts';
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
  historyPreview,
  historyTitle,
  relativeTime,
  toast,
  useContentsInfinite,
  useDeleteContent,
  useSession,
} from '@aict/web-kit';
import { ImageIcon, TextIcon, TrashIcon } from '../../../lib/icons';
import styles from '../../../lib/generation.module.css';

const SEARCH_DELAY_MS = 300;

function useDebounced(value: string, delay: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/** /history?type=text|image: the workspace's generated texts or images, newest first. */
export function HistoryPage() {
  const [params] = useSearchParams();
  const type: ContentType = params.get('type') === 'image' ? 'image' : 'text';
  const navigate = useNavigate();
  const { user } = useSession();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const history = useContentsInfinite({ type, q });
  const items = contentItems(history.data);
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
        toast({ title: 'Content deleted', variant: 'success' });
      },
      onError: (error) =>
        toast({
          title: 'Failed to delete content',
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });
  }

  let body;
  if (history.isError && !history.data) {
    body = (
      <Card role="alert">
        <CardHeader>
          <CardTitle>Failed to fetch contents</CardTitle>
          <CardDescription>Please try again later</CardDescription>
        </CardHeader>
        <div className={styles.cardBody}>
          <Button variant="outline" onClick={() => void history.refetch()}>
            Try again
          </Button>
        </div>
      </Card>
    );
  } else if (history.isPending) {
    body = (
      <div aria-busy="true" className={styles.list}>
        <VisuallyHidden role="status">Loading content</VisuallyHidden>
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} className={styles.promptSkeleton} />
        ))}
      </div>
    );
  } else if (items.length === 0) {
    body = q ? (
      <Card>
        <CardHeader>
          <CardTitle>No matching content</CardTitle>
          <CardDescription>Try adjusting your search terms</CardDescription>
        </CardHeader>
      </Card>
    ) : (
      <Card>
        <CardHeader>
          <CardTitle>No content yet</CardTitle>
          <CardDescription>Generate some content to see it here</CardDescription>
        </CardHeader>
      </Card>
    );
  } else {
    body = (
      <>
        <ul className={styles.list} aria-label={type === 'image' ? 'Images' : 'Texts'}>
          {items.map((item) => (
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
                  <span className={styles.muted}>{relativeTime(item.createdAt)}</span>
                </span>
              </div>
              {user?.id === item.userId && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete ${item.title}`}
                  onClick={() => setDoomed(item)}
                >
                  <TrashIcon />
                </Button>
              )}
            </li>
          ))}
        </ul>
        <p className={styles.muted} role="status">
          {items.length} item(s){q ? ` matching "${q}"` : ''}
        </p>
        {history.hasNextPage && (
          <div className={styles.actions}>
            <Button
              variant="outline"
              onClick={() => void history.fetchNextPage()}
              disabled={history.isFetchingNextPage}
            >
              {history.isFetchingNextPage ? 'Loading...' : 'Load more'}
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <Page
      title={type === 'image' ? 'Image History' : 'Text History'}
      description={
        type === 'image'
          ? 'Every image generated in this workspace.'
          : 'Every text generated in this workspace.'
      }
    >
      <div className={styles.filters}>
        <div className={styles.filterGrow}>
          <Label htmlFor={searchId}>{type === 'image' ? <ImageIcon /> : <TextIcon />} Search</Label>
          <Input
            id={searchId}
            type="search"
            placeholder="Search content..."
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
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
          <DialogTitle>Delete content?</DialogTitle>
          <DialogDescription>
            This action cannot be undone. This will permanently delete &quot;{doomed?.title}&quot;.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => setDoomed(null)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={confirmDelete} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </DialogFooter>
      </Dialog>
    </Page>
  );
}
