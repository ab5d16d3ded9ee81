import { useEffect, useRef, useState } from 'react';
import type { ContentItem, ReviewState } from '@aict/contracts';
import { BREAKPOINTS, SKELETON_COUNT } from '@aict/contracts/constants';
import {
  Badge,
  Button,
  Icon,
  ImageDialog,
  Input,
  Skeleton,
  Spinner,
  cn,
  contentItems,
  ExportButtons,
  groupConversations,
  historyPreview,
  historyTitle,
  relativeTime,
  ReviewBadge,
  ReviewFilter,
  useContentsInfinite,
  useIsMobile,
  useMediaQuery,
  useTranslation,
  turnsLabel,
  VoiceFlagsBadge,
} from '@aict/web-kit';
import { historyFooter, useDebouncedValue } from '../lib/use-debounced-value';
import styles from './history.module.css';

const SEARCH_DEBOUNCE_MS = 300;

export interface HistoryPanelProps {
  /** A text item was chosen: load its conversation. */
  onOpenConversation: (item: ContentItem) => void;
  onNewChat: () => void;
  /** The conversation shown now (highlighted). */
  activeId?: string | null;
  /** Mobile only: the panel is a sheet over the chat. */
  mobileOpen: boolean;
  onMobileOpenChange: (open: boolean) => void;
}

/**
 * The Content History panel (SPEC §2): pin/collapse on large screens (forced pinned and open
 * below 1024 px; a sheet on phones), 'New Chat', a server-side search, the items page by page.
 */
export function HistoryPanel({
  onOpenConversation,
  onNewChat,
  activeId,
  mobileOpen,
  onMobileOpenChange,
}: HistoryPanelProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const forced = useMediaQuery(`(max-width: ${BREAKPOINTS.historyPinned - 0.02}px)`);
  const [pinnedChoice, setPinnedChoice] = useState(true);
  const [collapsedChoice, setCollapsedChoice] = useState(false);
  const pinned = forced || pinnedChoice;
  const collapsed = !forced && collapsedChoice;
  const [search, setSearch] = useState('');
  const [review, setReview] = useState<ReviewState | undefined>(undefined);
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [image, setImage] = useState<ContentItem | null>(null);

  if (isMobile && !mobileOpen) return null;

  function togglePin() {
    if (pinnedChoice) {
      setPinnedChoice(false);
    } else {
      setPinnedChoice(true);
      setCollapsedChoice(false); // pinning opens it and un-collapses it
    }
  }

  function choose(item: ContentItem) {
    if (item.contentType === 'image') {
      setImage(item);
      return;
    }
    onOpenConversation(item);
    if (isMobile) onMobileOpenChange(false);
  }

  return (
    <aside
      className={cn(
        styles.panel,
        collapsed && styles.collapsed,
        !pinned && styles.floating,
        isMobile && styles.sheet,
      )}
      aria-label={t('history.title')}
      data-pinned={pinned}
      data-collapsed={collapsed}
    >
      <div className={styles.header}>
        {!collapsed && <h2 className={styles.heading}>{t('history.title')}</h2>}
        {!forced && (
          <>
            {!collapsed && (
              <Button
                variant="ghost"
                size="icon"
                aria-label={pinned ? t('history.unpin') : t('history.pin')}
                aria-pressed={pinned}
                onClick={togglePin}
              >
                <Icon>
                  <path d="M12 17v5M9 10.76V6h6v4.76a2 2 0 0 0 .89 1.66L18 14v2H6v-2l2.11-1.58A2 2 0 0 0 9 10.76z" />
                </Icon>
              </Button>
            )}
            <Button
              variant="ghost"
              size="icon"
              aria-label={collapsed ? t('history.expand') : t('history.collapse')}
              aria-expanded={!collapsed}
              onClick={() => setCollapsedChoice(!collapsed)}
            >
              <Icon>{collapsed ? <path d="m15 18-6-6 6-6" /> : <path d="m9 18 6-6-6-6" />}</Icon>
            </Button>
          </>
        )}
        {isMobile && (
          <Button
            variant="ghost"
            size="icon"
            aria-label={t('history.close')}
            onClick={() => onMobileOpenChange(false)}
          >
            <Icon>
              <path d="M18 6 6 18M6 6l12 12" />
            </Icon>
          </Button>
        )}
      </div>
      {!collapsed && (
        <>
          <div className={styles.tools}>
            <Button
              className={styles.newChat}
              onClick={() => {
                onNewChat();
                if (isMobile) onMobileOpenChange(false);
              }}
            >
              <Icon>
                <path d="M12 5v14M5 12h14" />
              </Icon>
              {t('history.newChat')}
            </Button>
            <Input
              type="search"
              placeholder={t('history.searchPlaceholder')}
              aria-label={t('history.search')}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
            <ReviewFilter value={review} onChange={setReview} />
          </div>
          <HistoryList q={q} review={review} onChoose={choose} activeId={activeId ?? null} />
        </>
      )}
      <ImageDialog item={image} onOpenChange={(open) => !open && setImage(null)} />
    </aside>
  );
}

function HistoryList({
  q,
  review,
  onChoose,
  activeId,
}: {
  q: string;
  review: ReviewState | undefined;
  onChoose: (item: ContentItem) => void;
  activeId: string | null;
}) {
  const { t } = useTranslation();
  const query = useContentsInfinite({ q, review });
  const items = contentItems(query.data).filter(
    (item) => item.contentType === 'text' || item.contentType === 'image',
  );
  // One row per conversation, grouped on the client (the list API has no thread id).
  const rows = groupConversations(items);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const canObserve = typeof IntersectionObserver === 'function';

  useEffect(() => {
    const target = sentinel.current;
    if (!target || !canObserve || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) {
        void fetchNextPage();
      }
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [canObserve, hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (query.isPending) {
    return (
      <div className={styles.list} role="status" aria-label={t('history.loading')}>
        {Array.from({ length: SKELETON_COUNT }, (_, index) => (
          <div key={index} className={styles.skeletonRow} data-testid="history-skeleton">
            <Skeleton className={styles.skeletonIcon} />
            <div className={styles.skeletonLines}>
              <Skeleton className={styles.skeletonLine} />
              <Skeleton className={styles.skeletonLineShort} />
            </div>
          </div>
        ))}
      </div>
    );
  }

  if (query.isError) {
    return (
      <div className={styles.state} role="alert">
        <p className={styles.stateTitle}>{t('history.failed')}</p>
        <p className={styles.stateText}>{t('history.failedText')}</p>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          {t('common.tryAgain')}
        </Button>
      </div>
    );
  }

  return (
    <>
      {items.length === 0 ? (
        <div className={styles.state}>
          <p className={styles.stateTitle}>
            {q || review ? t('history.noMatch') : t('history.empty')}
          </p>
          <p className={styles.stateText}>
            {q || review ? t('history.noMatchText') : t('history.emptyText')}
          </p>
        </div>
      ) : (
        <div className={styles.list}>
          <ul className={styles.items} aria-label={t('history.items')}>
            {rows.map(({ latest, turns, ids }) => {
              const active = activeId != null && ids.includes(activeId);
              return (
                <li key={latest.id}>
                  <HistoryItem
                    item={latest}
                    turns={turns}
                    flags={flagsOf(items, ids)}
                    active={active}
                    onChoose={onChoose}
                  />
                  {/* The conversation in view exports from its row (issue 18). */}
                  {active && latest.contentType === 'text' && (
                    <ExportButtons item={latest} className={styles.exportRow} />
                  )}
                </li>
              );
            })}
          </ul>
          {hasNextPage && (
            <div ref={sentinel} className={styles.more}>
              {isFetchingNextPage ? (
                <Spinner size="sm" label={t('history.loadingMore')} />
              ) : (
                !canObserve && (
                  <Button variant="ghost" size="sm" onClick={() => void fetchNextPage()}>
                    {t('history.loadMore')}
                  </Button>
                )
              )}
            </div>
          )}
        </div>
      )}
      <p className={styles.footer} aria-live="polite">
        {historyFooter(rows.length, q)}
      </p>
    </>
  );
}

/** The words to avoid found in any loaded turn of a conversation row. */
function flagsOf(items: readonly ContentItem[], ids: readonly string[]): string[] {
  const flags = new Set<string>();
  for (const item of items)
    if (ids.includes(item.id)) item.voiceFlags?.forEach((f) => flags.add(f));
  return [...flags];
}

function HistoryItem({
  item,
  turns,
  flags,
  active,
  onChoose,
}: {
  item: ContentItem;
  turns: number;
  flags: string[];
  active: boolean;
  onChoose: (item: ContentItem) => void;
}) {
  const { t } = useTranslation();
  const isImage = item.contentType === 'image';
  return (
    <button
      type="button"
      className={cn(styles.item, active && styles.active)}
      aria-current={active ? 'true' : undefined}
      onClick={() => onChoose(item)}
    >
      <span className={styles.itemIcon} aria-hidden="true">
        <Icon size={16}>
          {isImage ? (
            <>
              <rect x="3" y="3" width="18" height="18" rx="2" />
              <circle cx="9" cy="9" r="2" />
              <path d="m21 15-3.09-3.09a2 2 0 0 0-2.82 0L6 21" />
            </>
          ) : (
            <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
          )}
        </Icon>
      </span>
      <span className={styles.itemBody}>
        <span className={styles.itemTop}>
          <span className={styles.itemTitle} title={item.title}>
            {historyTitle(item.title)}
          </span>
          <Badge variant="outline" className={styles.badge}>
            {t(`history.contentType_${item.contentType}`)}
          </Badge>
        </span>
        {isImage ? (
          <span className={styles.imagePreview}>
            <img src={item.content} alt="" className={styles.thumb} loading="lazy" />
            <span className={styles.preview}>{historyPreview(item)}</span>
          </span>
        ) : (
          <span className={styles.preview}>{historyPreview(item)}</span>
        )}
        <span className={styles.meta}>
          <span>{item.model}</span>
          <span>{item.language}</span>
          {!isImage && <span>{turnsLabel(turns)}</span>}
          <time dateTime={item.createdAt}>{relativeTime(item.createdAt)}</time>
          <VoiceFlagsBadge flags={flags} />
          <ReviewBadge review={item.review} />
        </span>
      </span>
    </button>
  );
}
