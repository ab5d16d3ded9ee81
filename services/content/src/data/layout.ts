import type { ContentType, GeneratedContent, ReviewState } from '@aict/contracts';
import { readList, storeList, type StoredList } from '@aict/service-kit';
import {
  bitsOf,
  postingId,
  readyId,
  gramsOf,
  type PageGramsDoc,
  type PostingDoc,
} from './trigrams';

// The shape of the documents the reads use (see README "Data"). Pure functions only: the
// store use case and the benchmark's bulk seeding build the very same documents here.

/** Items per history page (a page can hold a few more after late arrivals). */
export const PAGE_SIZE = 50;
/** SPEC §9: the history text preview. */
export const PREVIEW_CHARS = 80;
/** Metadata copied into list items (as JSON) only up to this size; the rest stays in the record. */
export const SMALL_METADATA_CHARS = 512;

/** History scopes: the three lists (all, text, image) and the search pages (all, with text). */
export type Scope = 'all' | ContentType | 'search';
export const SCOPES: readonly Scope[] = ['all', 'text', 'image', 'search'];

/**
 * Whose contents a document belongs to: the workspace id, or `u:<userId>` for the contents
 * generated without a workspace (visible to their owner only).
 */
export type OwnerKey = string;

export const ownerKeyOf = (workspaceId: number | null, userId: string): OwnerKey =>
  workspaceId === null ? `u:${userId}` : String(workspaceId);

export const headId = (key: OwnerKey, scope: Scope) => `${key}:${scope}`;
export const pageId = (key: OwnerKey, scope: Scope, page: number) => `${key}:${scope}:${page}`;

/**
 * A content's review as the lists show it (issue 18), copied from its review chain (the
 * source of truth, see data/review.repository.ts); `rev` is the chain version it came from.
 * Absent on a draft never changed.
 */
export interface ReviewCopy {
  state: ReviewState;
  comment?: string;
  by?: string;
  /** ISO time of the change. */
  at: string;
  rev: number;
}

/** The record: the source of truth (collection `contents`, `_id` = content id). */
export interface ContentRecord {
  _id: string;
  key: OwnerKey;
  workspaceId: number | null;
  userId: string;
  title: string;
  content: string;
  contentType: ContentType;
  model: string;
  language: string;
  promptId: string | null;
  /** The version of the prompt it came from (issue 18); absent when unknown. */
  promptVersion?: number;
  parentId: string | null;
  threadId: string;
  /** JSON text: metadata keys are free (FerretDB refuses some field names). */
  metadata: string;
  usage: { promptTokens: number; completionTokens: number; images: number };
  createdAt: Date;
  /** Where the item sits in each scope's pages (set after placing; speeds up removal). */
  at?: Partial<Record<Scope, number>>;
  /** Deleted (a tombstone: a late copy of the generation must not bring it back). */
  deletedAt?: Date;
  /** The brand voice's words to avoid the text contains (issue 18); absent when none. */
  voiceFlags?: string[];
  /** The review (a copy of the review chain's latest version); absent on a draft. */
  review?: ReviewCopy;
  /** What its generation cost (micro-units, the usage ledger's price); absent when unknown. */
  costMicros?: number;
}

/** One history item: what a list shows (small), sorted by (t, id). */
export interface SummaryItem {
  id: string;
  t: number;
  title: string;
  /** The first PREVIEW_CHARS characters of a text, or the image URL. */
  content: string;
  contentType: ContentType;
  model: string;
  language: string;
  userId: string;
  workspaceId: number | null;
  promptId: string | null;
  /** As ContentRecord.promptVersion; absent when unknown. */
  promptVersion?: number;
  parentId: string | null;
  /** JSON text of the small metadata, or '{}'. */
  metadata: string;
  /** As ContentRecord.voiceFlags (a badge in history); absent when none. */
  voiceFlags?: string[];
  /** As ContentRecord.review (a badge and a filter in history); absent on a draft. */
  review?: ReviewCopy;
}

/** A search page item: the summary plus the lower-cased title and (for texts) content. */
export interface SearchItem extends SummaryItem {
  s: string;
}

export interface PageDoc<I extends SummaryItem = SummaryItem> {
  _id: string;
  /** Grows with every write (the search cache compares it). */
  ver: number;
  /** Oldest first. */
  items: I[];
}

/**
 * A page as stored (collections `history_pages`, `search_pages`): its items as one string
 * (StoredList; FerretDB decodes a document value by value, and a store reads and replaces three
 * pages and a thread).
 */
export interface StoredPageDoc<I extends SummaryItem = SummaryItem> {
  _id: string;
  ver: number;
  items: StoredList<I>;
}

export const storedPage = <I extends SummaryItem>(page: PageDoc<I>): StoredPageDoc<I> => ({
  _id: page._id,
  ver: page.ver,
  items: storeList(page.items),
});

export const pageOf = <I extends SummaryItem>(stored: StoredPageDoc<I>): PageDoc<I> => ({
  _id: stored._id,
  ver: stored.ver,
  items: readList(stored.items),
});

/** Page number → version, as the reads use it. */
export type PageVersions = Record<string, number>;

/**
 * Page versions as stored: one string, each page's version in base 36 at its page's
 * position, separated by commas (empty: no version). FerretDB v1 decodes a stored document
 * value by value, and a map of 2,000 pages (an owner of 100k contents) cost it 24 ms per read
 * and 52 ms per `$set` of one of its fields, against ~2 ms either way as one string
 * (measured here, one-off). Documents written before hold the map, read alike.
 */
export type StoredVersions = string | PageVersions;

export function encodeVersions(v: Readonly<PageVersions>): string {
  const out: string[] = [];
  for (const [page, ver] of Object.entries(v)) {
    const p = Number(page);
    if (!Number.isInteger(p) || p < 0 || !Number.isInteger(ver)) continue;
    while (out.length < p) out.push('');
    out[p] = ver.toString(36);
  }
  return out.join(',');
}

export function decodeVersions(stored: StoredVersions | undefined): PageVersions {
  if (stored === undefined || stored === null) return {};
  if (typeof stored !== 'string') return { ...stored };
  const out: PageVersions = {};
  if (stored === '') return out;
  stored.split(',').forEach((ver, p) => {
    if (ver !== '') out[p] = parseInt(ver, 36);
  });
  return out;
}

/** A scope's head as stored (collection `history_heads`, `_id` = `<key>:<scope>`). */
export interface StoredHeadDoc {
  _id: string;
  lastPage: number;
  v?: StoredVersions;
}

/** A scope's head as read. */
export interface HeadDoc {
  _id: string;
  lastPage: number;
  /**
   * The version of each page, by page number (recorded after the page's write; a head
   * written before the other scopes recorded theirs lists the search pages' only).
   */
  v?: PageVersions;
}

/** One turn of a thread: everything a ContentItem needs. */
export interface TurnItem extends SummaryItem {
  /** The whole content (SummaryItem.content is the preview). */
  full: string;
  /** Full metadata, JSON. */
  meta: string;
}

/** A conversation (collection `threads`, `_id` = thread id = the first content's id). */
export interface ThreadDoc {
  _id: string;
  key: OwnerKey;
  /** Oldest first. */
  turns: TurnItem[];
}

/** A thread as stored: its turns as one string (StoredList). */
export interface StoredThreadDoc {
  _id: string;
  key: OwnerKey;
  turns: StoredList<TurnItem>;
}

export const storedThread = (thread: ThreadDoc): StoredThreadDoc => ({
  _id: thread._id,
  key: thread.key,
  turns: storeList(thread.turns),
});

export const threadOf = (stored: StoredThreadDoc): ThreadDoc => ({
  _id: stored._id,
  key: stored.key,
  turns: readList(stored.turns),
});

/** Per owner: counts and usage (collection `counters`, `_id` = owner key). */
export interface CountersDoc {
  _id: string;
  text: number;
  image: number;
  promptTokens: number;
  completionTokens: number;
  images: number;
  /** The last operations applied (`+id`, `-id`): makes a repeated repair a no-op. */
  applied: AppliedOps;
  /** The workspace was deleted: nothing is stored for it any more. */
  closed?: boolean;
  /** Contents per review state other than draft (issue 18); drafts are the rest. */
  reviews?: Partial<Record<ReviewState, number>>;
}

/** Operations remembered in CountersDoc.applied (far more than writes in flight). */
export const APPLIED_MEMORY = 500;

/**
 * The operations an `applied` field remembers (`+id`, `-id`, `r<n>:id`; ids hold no spaces):
 * one string, separated by spaces. FerretDB decodes a stored array value by value: a
 * counters document with 500 operations cost 3.4–4.2 ms of its CPU per read or replace
 * as an array, 1.5–1.7 ms as one string, and a store reads and replaces it several times.
 * Documents written before hold an array: both are read.
 */
export type AppliedOps = string | readonly string[];

/** Whether `op` was applied. */
export function hasApplied(applied: AppliedOps | undefined, op: string): boolean {
  if (!applied) return false;
  if (typeof applied !== 'string') return applied.includes(op);
  return ` ${applied} `.includes(` ${op} `);
}

/** The field with `op` added (the last APPLIED_MEMORY kept), as one string. */
export function withApplied(applied: AppliedOps | undefined, op: string): string {
  const ops =
    typeof applied === 'string' ? (applied ? applied.split(' ') : []) : [...(applied ?? [])];
  ops.push(op);
  return ops.slice(-APPLIED_MEMORY).join(' ');
}

export function recordOf(gc: GeneratedContent): ContentRecord {
  return {
    _id: gc.id,
    key: ownerKeyOf(gc.workspaceId, gc.userId),
    workspaceId: gc.workspaceId,
    userId: gc.userId,
    title: gc.title,
    content: gc.content,
    contentType: gc.contentType,
    model: gc.model,
    language: gc.language,
    promptId: gc.promptId,
    parentId: gc.parentId,
    threadId: gc.threadId,
    metadata: JSON.stringify(gc.metadata ?? {}),
    usage: { ...gc.usage },
    createdAt: new Date(gc.createdAt),
    ...(gc.voiceFlags?.length ? { voiceFlags: [...gc.voiceFlags] } : {}),
    ...(gc.promptVersion ? { promptVersion: gc.promptVersion } : {}),
    ...(gc.costMicros === undefined ? {} : { costMicros: gc.costMicros }),
  };
}

export function summaryOf(r: ContentRecord): SummaryItem {
  return {
    id: r._id,
    t: r.createdAt.getTime(),
    title: r.title,
    content: r.contentType === 'text' ? r.content.slice(0, PREVIEW_CHARS) : r.content,
    contentType: r.contentType,
    model: r.model,
    language: r.language,
    userId: r.userId,
    workspaceId: r.workspaceId,
    promptId: r.promptId,
    ...(r.promptVersion ? { promptVersion: r.promptVersion } : {}),
    parentId: r.parentId,
    metadata: smallMetadata(r.metadata),
    ...(r.voiceFlags?.length ? { voiceFlags: r.voiceFlags } : {}),
    ...(r.review ? { review: r.review } : {}),
  };
}

/** SPEC §5: the title, and the content of text items, case-insensitively. */
export function searchItemOf(r: ContentRecord): SearchItem {
  const text = r.contentType === 'text' ? `\n${r.content}` : '';
  return { ...summaryOf(r), s: `${r.title}${text}`.toLowerCase() };
}

export function turnOf(r: ContentRecord): TurnItem {
  return { ...summaryOf(r), full: r.content, meta: r.metadata };
}

/** The metadata JSON when small, else only its small top-level entries. */
export function smallMetadata(json: string): string {
  if (json.length <= SMALL_METADATA_CHARS) return json;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return '{}';
  }
  const kept: Record<string, unknown> = {};
  let size = 2;
  for (const [k, v] of Object.entries(parsed)) {
    const part = JSON.stringify({ [k]: v }).length;
    if (size + part > SMALL_METADATA_CHARS) continue;
    kept[k] = v;
    size += part;
  }
  return JSON.stringify(kept);
}

/** Order of items: by time, then id. Negative when a comes first (is older). */
export function compareItems(a: { t: number; id: string }, b: { t: number; id: string }): number {
  if (a.t !== b.t) return a.t - b.t;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The items with `item` inserted in order, or null when it is already there. */
export function insertSorted<I extends SummaryItem>(items: readonly I[], item: I): I[] | null {
  if (items.some((i) => i.id === item.id)) return null;
  const out = [...items];
  let at = out.length;
  while (at > 0 && compareItems(item, out[at - 1]!) < 0) at--;
  out.splice(at, 0, item);
  return out;
}

export function scopesOf(type: ContentType): Scope[] {
  return ['all', type, 'search'];
}

export function itemFor(scope: Scope, r: ContentRecord): SummaryItem | SearchItem {
  return scope === 'search' ? searchItemOf(r) : summaryOf(r);
}

/**
 * All documents the store would have written for these records (one owner), for bulk
 * loading (benchmarks): pages of every scope, heads, threads and counters.
 */
export function bulkDocuments(records: readonly ContentRecord[], pageSize = PAGE_SIZE) {
  const sorted = [...records].sort((a, b) => compareItems(summaryOf(a), summaryOf(b)));
  const pages: PageDoc[] = [];
  const searchPages: PageDoc<SearchItem>[] = [];
  const heads: StoredHeadDoc[] = [];
  const threads = new Map<string, ThreadDoc>();
  const counters = new Map<string, CountersDoc>();
  const postings: PostingDoc[] = [];
  const pageGrams: PageGramsDoc[] = [];
  const byKey = new Map<string, ContentRecord[]>();
  for (const r of sorted) {
    const ofKey = byKey.get(r.key) ?? [];
    ofKey.push(r);
    byKey.set(r.key, ofKey);
    const thread = threads.get(r.threadId) ?? { _id: r.threadId, key: r.key, turns: [] };
    thread.turns.push(turnOf(r));
    threads.set(r.threadId, thread);
    const c = counters.get(r.key) ?? {
      _id: r.key,
      text: 0,
      image: 0,
      promptTokens: 0,
      completionTokens: 0,
      images: 0,
      applied: '',
    };
    c[r.contentType]++;
    c.promptTokens += r.usage.promptTokens;
    c.completionTokens += r.usage.completionTokens;
    c.images += r.usage.images;
    counters.set(r.key, c);
  }
  for (const [key, list] of byKey) {
    for (const scope of SCOPES) {
      const inScope =
        scope === 'all' || scope === 'search' ? list : list.filter((r) => r.contentType === scope);
      const versions: Record<string, number> = {};
      let n = 0;
      for (let i = 0; i < inScope.length; i += pageSize, n++) {
        const chunk = inScope.slice(i, i + pageSize);
        if (scope === 'search') {
          const items = chunk.map(searchItemOf);
          searchPages.push({ _id: pageId(key, scope, n), ver: 1, items });
          const grams = new Set<string>();
          for (const i of items) for (const g of gramsOf(i.s)) grams.add(g);
          pageGrams.push({ _id: pageId(key, scope, n), key, g: storeList(grams) });
        } else pages.push({ _id: pageId(key, scope, n), ver: 1, items: chunk.map(summaryOf) });
        versions[n] = 1;
        for (const r of chunk) r.at = { ...r.at, [scope]: n };
      }
      if (scope === 'search') postings.push(...ownerPostings(key, pageGrams));
      if (n > 0)
        heads.push({ _id: headId(key, scope), lastPage: n - 1, v: encodeVersions(versions) });
    }
  }
  return {
    contents: sorted,
    pages,
    searchPages,
    heads,
    threads: [...threads.values()],
    counters: [...counters.values()],
    postings,
    pageGrams,
  };
}

/** The search index of one owner's pages (bulk loading), with its "complete" marker. */
function ownerPostings(key: OwnerKey, pageGrams: readonly PageGramsDoc[]): PostingDoc[] {
  const pagesOf = new Map<string, number[]>();
  for (const doc of pageGrams) {
    if (doc.key !== key) continue;
    const page = Number(doc._id.slice(doc._id.lastIndexOf(':') + 1));
    for (const g of readList(doc.g)) {
      const list = pagesOf.get(g);
      if (list) list.push(page);
      else pagesOf.set(g, [page]);
    }
  }
  const iv: Record<string, number> = {};
  for (const doc of pageGrams)
    if (doc.key === key) iv[doc._id.slice(doc._id.lastIndexOf(':') + 1)] = 1;
  const out: PostingDoc[] = [
    { _id: readyId(key), key, ready: true, gen: 'bulk', iv: encodeVersions(iv) },
  ];
  for (const [g, pages] of pagesOf) out.push({ _id: postingId(key, g), key, b: bitsOf(pages) });
  return out;
}
