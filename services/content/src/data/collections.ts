import type { Connection } from 'mongoose';
import type { Envelope, Logger } from '@aict/service-kit';
import type {
  ContentRecord,
  CountersDoc,
  StoredHeadDoc,
  OwnerKey,
  StoredPageDoc,
  SearchItem,
  StoredThreadDoc,
} from './layout';
import type { PromptResultsDoc } from './prompt-results.repository';
import type { PageGramsDoc, PostingDoc } from './trigrams';

/**
 * A write in progress (collection `pending`, small): written before the record changes and
 * removed once every derived document is up to date and its event is published. The repair
 * replays what is left (a crash in between) from here; it is also the outbox of the event.
 */
export type PendingDoc =
  | {
      _id: string;
      op: 'store';
      key: OwnerKey;
      at: Date;
      /** The GeneratedContent as JSON (its metadata keys are free). */
      content: string;
      event: Envelope;
    }
  | {
      _id: string;
      op: 'delete';
      key: OwnerKey;
      at: Date;
      contentId: string;
      event: Envelope;
    }
  | {
      /** A review change (issue 18): its copies in the lists follow the review chain. */
      _id: string;
      op: 'review';
      key: OwnerKey;
      at: Date;
      contentId: string;
    };

export const pendingStoreId = (contentId: string) => contentId;
export const pendingDeleteId = (contentId: string) => `del:${contentId}`;
export const pendingReviewId = (contentId: string, n: number) => `rev:${contentId}:${n}`;

export function contentCollections(conn: Connection) {
  return {
    contents: conn.collection<ContentRecord>('contents'),
    pages: conn.collection<StoredPageDoc>('history_pages'),
    searchPages: conn.collection<StoredPageDoc<SearchItem>>('search_pages'),
    heads: conn.collection<StoredHeadDoc>('history_heads'),
    threads: conn.collection<StoredThreadDoc>('threads'),
    counters: conn.collection<CountersDoc>('counters'),
    pending: conn.collection<PendingDoc>('pending'),
    /** The search index: per owner and trigram, the search pages that may hold it. */
    postings: conn.collection<PostingDoc>('search_postings'),
    /** Per search page, the trigrams its postings already hold. */
    pageGrams: conn.collection<PageGramsDoc>('search_page_grams'),
    /** Template results per prompt and workspace (issue 18). */
    promptResults: conn.collection<PromptResultsDoc>('prompt_results'),
  };
}

export type ContentCollections = ReturnType<typeof contentCollections>;

/**
 * Indexes for MongoDB (FerretDB v1 only uses `_id`): the record by workspace and time (the
 * workspace clean-up, ad-hoc queries), threads by owner, pending writes by age, template
 * results by workspace (its clean-up).
 */
export async function ensureIndexes(c: ContentCollections, logger: Logger): Promise<void> {
  const wanted: Array<Promise<unknown>> = [
    c.contents.createIndex({ workspaceId: 1, createdAt: -1 }),
    c.contents.createIndex({ key: 1, createdAt: -1 }),
    c.threads.createIndex({ key: 1 }),
    c.pending.createIndex({ at: 1 }),
    c.postings.createIndex({ key: 1 }),
    c.pageGrams.createIndex({ key: 1 }),
    c.promptResults.createIndex({ workspaceId: 1 }),
  ];
  const results = await Promise.allSettled(wanted);
  for (const r of results)
    if (r.status === 'rejected') logger.warn({ err: r.reason }, 'could not create an index');
}
