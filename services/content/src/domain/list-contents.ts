import type { ListContentsQuery, TrustedContext } from '@aict/contracts';
import {
  compareItems,
  pageId,
  type OwnerKey,
  type SearchItem,
  type SummaryItem,
} from '../data/layout';
import { intersectPages, queryGrams } from '../data/trigrams';
import { decodeCursor, encodeCursor, type Cursor } from '../lib/cursor';
import { ownerInView } from './access';
import type { DomainDeps } from './domain-deps';
import { pagesBehind } from './search-index';

/** Search pages read at once when they are not in the cache. */
const SEARCH_BATCH = 8;

/** A page of the history as the route presents it: the list items and the next cursor. */
export interface HistoryPage {
  items: SummaryItem[];
  nextCursor: string | null;
}

interface Found {
  item: SummaryItem;
  page: number;
}

/**
 * GET /api/contents: the history of the workspace in view (or the caller's contents without
 * a workspace), newest first, `type`-filtered, `q`-searched, `limit` items from `cursor`.
 * `inView`: the workspace the request acts in, already authorised (null: none).
 */
export async function listContents(
  d: DomainDeps,
  ctx: TrustedContext,
  query: ListContentsQuery,
  inView: number | null,
): Promise<HistoryPage> {
  const key = ownerInView(ctx, inView);
  const cursor = decodeCursor(query.cursor);
  const fits = filterOf(query);
  const found = query.q
    ? await search(d, key, query.q, query.type, cursor, query.limit + 1, fits)
    : await browse(d, key, query.type ?? 'all', cursor, query.limit + 1, fits);
  const items = found.slice(0, query.limit);
  const last = items[items.length - 1];
  const nextCursor =
    found.length > query.limit && last
      ? encodeCursor({ p: last.page, t: last.item.t, i: last.item.id })
      : null;
  return { items: items.map((f) => f.item), nextCursor };
}

/** The list's filters (review state, model, author, prompt, time range) as one predicate. */
function filterOf(query: ListContentsQuery): (item: SummaryItem) => boolean {
  const { review, model, userId, promptId } = query;
  const from = query.from === undefined ? -Infinity : Date.parse(query.from);
  const to = query.to === undefined ? Infinity : Date.parse(query.to);
  return (item) =>
    (!review || (item.review?.state ?? 'draft') === review) &&
    (!model || item.model === model) &&
    (!userId || item.userId === userId) &&
    (!promptId || item.promptId === promptId) &&
    item.t >= from &&
    item.t < to;
}

const afterCursor = (item: SummaryItem, cursor: Cursor | null) =>
  !cursor || compareItems(item, { t: cursor.t, id: cursor.i }) < 0;

/**
 * Up to `want` items of a list scope, newest first: its pages by `_id`, each from the page
 * cache when the head lists the version cached (the store keeps the pages it writes).
 */
async function browse(
  d: DomainDeps,
  key: OwnerKey,
  scope: 'all' | 'text' | 'image',
  cursor: Cursor | null,
  want: number,
  fits: (item: SummaryItem) => boolean,
): Promise<Found[]> {
  const head = await d.history.readHead(key, scope);
  if (!head) return [];
  const out: Found[] = [];
  for (let p = Math.min(cursor?.p ?? head.lastPage, head.lastPage); p >= 0; p--) {
    const doc = await d.history.pageAt(key, scope, p, head);
    const items = doc?.items ?? [];
    for (let i = items.length - 1; i >= 0 && out.length < want; i--) {
      const item = items[i]!;
      if (afterCursor(item, cursor) && fits(item)) out.push({ item, page: p });
    }
    if (out.length >= want) break;
  }
  return out;
}

/**
 * SPEC §5: case-insensitive match on the title, and on the content of text items, newest
 * first; `q` is a plain substring (regex characters are literal), of any length. The index
 * (README "Search index": the query's trigrams, or its one gram of 1–2 characters) names the
 * candidate pages, and every page the index does not hold at its current version is a
 * candidate too (the upkeep runs after the write); an owner without a complete index scans
 * its search pages newest first until `want` matches. Either way every item is checked
 * against the text itself (`includes`), so the index only decides which pages are read.
 * Pages come from the cache when their version is current.
 */
async function search(
  d: DomainDeps,
  key: OwnerKey,
  q: string,
  type: 'text' | 'image' | undefined,
  cursor: Cursor | null,
  want: number,
  fits: (item: SummaryItem) => boolean,
): Promise<Found[]> {
  const needle = q.toLowerCase();
  const grams = queryGrams(needle);
  const [head, marker] = await Promise.all([
    d.history.readHead(key, 'search'),
    grams.length > 0 ? d.index.readMarker(key) : null,
  ]);
  if (!head) return [];
  const start = Math.min(cursor?.p ?? head.lastPage, head.lastPage);
  let candidates: number[] | null = null;
  if (marker?.ready) {
    // Postings cached for this state of the marker are current (the upkeep writes postings,
    // then the page's version in the marker).
    const stamp = `${marker.gen}:${versionSum(marker.iv)}`;
    const indexed = intersectPages(await d.index.readPostings(key, grams, stamp), start);
    candidates = mergeNewestFirst(indexed, pagesBehind(head.v, marker.iv, start));
  }
  const out: Found[] = [];
  const scan = d.searchCache.newScan();
  let next = 0;
  let p = start;
  while (out.length < want) {
    const batch: number[] = [];
    if (candidates)
      while (next < candidates.length && batch.length < SEARCH_BATCH)
        batch.push(candidates[next++]!);
    else for (; p >= 0 && batch.length < SEARCH_BATCH; p--) batch.push(p);
    if (batch.length === 0) break;
    const pages = await loadSearchPages(d, key, batch, head.v ?? {}, scan);
    for (const [i, page] of batch.entries()) {
      const items = pages[i]!;
      for (let j = items.length - 1; j >= 0 && out.length < want; j--) {
        const item = items[j]!;
        if (type && item.contentType !== type) continue;
        if (!afterCursor(item, cursor)) continue;
        if (item.s.includes(needle) && fits(item)) out.push({ item, page });
      }
      if (out.length >= want) break;
    }
  }
  return out;
}

/** Grows with every version the upkeep records (versions only grow). */
function versionSum(v: Record<string, number> | undefined): number {
  let sum = 0;
  for (const n of Object.values(v ?? {})) sum += n;
  return sum;
}

/** Two newest-first page lists as one, without repeats. */
function mergeNewestFirst(a: readonly number[], b: readonly number[]): number[] {
  if (b.length === 0) return [...a];
  return [...new Set([...a, ...b])].sort((x, y) => y - x);
}

async function loadSearchPages(
  d: DomainDeps,
  key: OwnerKey,
  pages: number[],
  versions: Record<string, number>,
  scan: number,
): Promise<SearchItem[][]> {
  const ids = pages.map((p) => pageId(key, 'search', p));
  const cached = ids.map((id, i) => d.searchCache.get(id, versions[pages[i]!] ?? 0, scan));
  const missing = pages.filter((_, i) => cached[i] === undefined);
  // The missing pages of the batch are read in parallel (each by `_id`).
  const docs = await Promise.all(missing.map((p) => d.history.readPage(key, 'search', p)));
  const fetched = new Map<number, SearchItem[]>();
  missing.forEach((p, i) => {
    const doc = docs[i] as { ver: number; items: SearchItem[] } | null;
    const items = doc?.items ?? [];
    fetched.set(p, items);
    if (doc) d.searchCache.set(pageId(key, 'search', p), doc.ver, items, scan);
  });
  return pages.map((p, i) => cached[i] ?? fetched.get(p) ?? []);
}
