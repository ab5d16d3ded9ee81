import type { Collection } from 'mongoose';
import type { ContentCollections } from './collections';
import {
  compareItems,
  decodeVersions,
  encodeVersions,
  PAGE_SIZE,
  headId,
  insertSorted,
  pageId,
  pageOf,
  storedPage,
  type HeadDoc,
  type OwnerKey,
  type PageDoc,
  type StoredPageDoc,
  type Scope,
  type SummaryItem,
} from './layout';

// History pages ("bucket pattern"): per owner and scope, pages `<key>:<scope>:<n>` of up to
// `pageSize` items, oldest first inside a page, page numbers growing with time, and a head
// `<key>:<scope>` with the last page number and each page's version (`v`, one string:
// layout.ts StoredVersions), written after the page by the same call. Every read and write is
// by `_id`. Writers of one owner are serialised by the caller (the owner's lock): FerretDB v1
// applies an update as read-modify-write, and the head is rewritten from the one this call
// read.
//
// The pages this process wrote or read are kept in `cache` for the version they had: a write
// reads the head anyway, and a page whose version the head lists is taken from the cache
// instead of read again. Pages are the largest documents here (a search page of 50 items
// holds their whole texts, ~57 KB in the load), and FerretDB decodes a document from JSON for
// every read and again for every replace, so the store's reads of the page it adds to were
// most of its database time. A page written by someone else has a version this process did
// not keep (the head's is newer), and a head without versions (older data) reads the page.

export interface Placement {
  page: number;
  ver: number;
  /** False when the item was there already (a repeated write). */
  changed: boolean;
  /** True when this write began the owner's pages of the scope (its first item). */
  first?: boolean;
}

type AnyPage = PageDoc<SummaryItem>;

/** Pages by `_id`, each valid for one version (page-cache.ts SearchPageCache). */
export interface PageCache {
  get(id: string, ver: number): SummaryItem[] | undefined;
  set(id: string, ver: number, items: SummaryItem[]): void;
  drop(id: string): void;
}

const NO_CACHE: PageCache = { get: () => undefined, set: () => undefined, drop: () => undefined };

export function createHistoryRepository(
  c: ContentCollections,
  pageSize = PAGE_SIZE,
  cache: PageCache = NO_CACHE,
) {
  const pagesOf = (scope: Scope) =>
    (scope === 'search' ? c.searchPages : c.pages) as unknown as Collection<StoredPageDoc>;

  async function readHead(key: OwnerKey, scope: Scope): Promise<HeadDoc | null> {
    const stored = await c.heads.findOne({ _id: headId(key, scope) });
    return stored && { _id: stored._id, lastPage: stored.lastPage, v: decodeVersions(stored.v) };
  }

  async function readPage(key: OwnerKey, scope: Scope, page: number): Promise<AnyPage | null> {
    const stored = await pagesOf(scope).findOne({ _id: pageId(key, scope, page) });
    return stored && pageOf(stored);
  }

  /** The page at the version the head lists: from the cache when it holds that version. */
  async function pageAt(
    key: OwnerKey,
    scope: Scope,
    page: number,
    head: HeadDoc | null,
  ): Promise<AnyPage | null> {
    const id = pageId(key, scope, page);
    const ver = head?.v?.[page];
    const items = ver === undefined ? undefined : cache.get(id, ver);
    if (items) return { _id: id, ver: ver!, items };
    const doc = await readPage(key, scope, page);
    if (doc) cache.set(id, doc.ver, doc.items);
    return doc;
  }

  async function writePage(scope: Scope, page: AnyPage): Promise<void> {
    cache.drop(page._id); // a failed write leaves nothing behind that might not be stored
    const { _id, ...doc } = storedPage(page);
    await pagesOf(scope).replaceOne({ _id }, doc, { upsert: true });
    cache.set(page._id, page.ver, page.items);
  }

  /**
   * Records page `page` at version `ver` (and `lastPage`) in the head `head` read by this
   * call; no write when it lists them already. Always after the page's write: a crash in
   * between leaves the version unrecorded, and the next write of the page records it.
   */
  async function record(
    key: OwnerKey,
    scope: Scope,
    head: HeadDoc | null,
    page: number,
    ver: number,
  ): Promise<void> {
    const lastPage = Math.max(head?.lastPage ?? -1, page);
    if (head && head.lastPage === lastPage && head.v?.[page] === ver) return;
    const v = encodeVersions({ ...head?.v, [page]: ver });
    await c.heads.replaceOne({ _id: headId(key, scope) }, { lastPage, v }, { upsert: true });
  }

  /**
   * The page an item with this sort key belongs to: the newest page whose first item is not
   * newer than it (empty pages skipped), starting at `hint` when given. Also the page read.
   */
  async function locate(
    key: OwnerKey,
    scope: Scope,
    item: { t: number; id: string },
    head: HeadDoc,
    hint?: number,
  ): Promise<{ page: number; doc: AnyPage | null; above: number | null }> {
    const lastPage = head.lastPage;
    if (hint !== undefined && hint >= 0 && hint <= lastPage) {
      const doc = await pageAt(key, scope, hint, head);
      if (doc?.items.some((i) => i.id === item.id)) return { page: hint, doc, above: null };
    }
    let above: number | null = null;
    for (let p = lastPage; p >= 0; p--) {
      const doc = await pageAt(key, scope, p, head);
      const first = doc?.items[0];
      if (first && (compareItems(first, item) <= 0 || p === 0)) return { page: p, doc, above };
      if (p === 0) return { page: 0, doc, above };
      above = p;
    }
    return { page: 0, doc: null, above: null };
  }

  /** Adds the item to the scope's pages (no-op when present). Idempotent. */
  async function place(key: OwnerKey, scope: Scope, item: SummaryItem): Promise<Placement> {
    const head = await readHead(key, scope);
    const lastPage = head?.lastPage ?? -1;
    if (!head || lastPage < 0) {
      await writePage(scope, { _id: pageId(key, scope, 0), ver: 1, items: [item] });
      await record(key, scope, head, 0, 1);
      return { page: 0, ver: 1, changed: true, first: true };
    }
    const found = await locate(key, scope, item, head);
    let { page, doc } = found;
    const items = doc?.items ?? [];
    if (items.some((i) => i.id === item.id)) return unchanged(key, scope, head, page, doc!);
    const newest = items.length === 0 || compareItems(items[items.length - 1]!, item) < 0;
    if (items.length >= pageSize && newest) {
      // The page is full and the item comes after it: the next page (a new one at the end).
      page = found.above ?? lastPage + 1;
      doc = page <= lastPage ? await pageAt(key, scope, page, head) : null;
    }
    const next = insertSorted(doc?.items ?? [], item);
    if (!next) return unchanged(key, scope, head, page, doc!);
    const ver = (doc?.ver ?? 0) + 1;
    await writePage(scope, { _id: pageId(key, scope, page), ver, items: next });
    await record(key, scope, head, page, ver);
    return { page, ver, changed: true };
  }

  /** A write that changes nothing: the page's version recorded (a crash may have come first). */
  async function unchanged(
    key: OwnerKey,
    scope: Scope,
    head: HeadDoc,
    page: number,
    doc: AnyPage,
  ): Promise<Placement> {
    await record(key, scope, head, page, doc.ver);
    return { page, ver: doc.ver, changed: false };
  }

  /** Removes the item from the scope's pages (no change when absent). Idempotent. */
  async function remove(
    key: OwnerKey,
    scope: Scope,
    item: { t: number; id: string },
    hint?: number,
  ): Promise<Placement | null> {
    const head = await readHead(key, scope);
    if (!head) return null;
    const { page, doc } = await locate(key, scope, item, head, hint);
    if (!doc) return null;
    if (!doc.items.some((i) => i.id === item.id)) return unchanged(key, scope, head, page, doc);
    const ver = doc.ver + 1;
    await writePage(scope, { ...doc, ver, items: doc.items.filter((i) => i.id !== item.id) });
    await record(key, scope, head, page, ver);
    return { page, ver, changed: true };
  }

  /** Replaces the item with the same id (no change when absent or equal). Idempotent. */
  async function replace(
    key: OwnerKey,
    scope: Scope,
    item: SummaryItem,
    hint?: number,
  ): Promise<Placement | null> {
    const head = await readHead(key, scope);
    if (!head) return null;
    const { page, doc } = await locate(key, scope, item, head, hint);
    const at = doc?.items.findIndex((i) => i.id === item.id) ?? -1;
    if (!doc) return null;
    if (at < 0 || JSON.stringify(doc.items[at]) === JSON.stringify(item))
      return unchanged(key, scope, head, page, doc);
    const ver = doc.ver + 1;
    const items = [...doc.items];
    items[at] = item;
    await writePage(scope, { ...doc, ver, items });
    await record(key, scope, head, page, ver);
    return { page, ver, changed: true };
  }

  const deletePage = (key: OwnerKey, scope: Scope, page: number) => {
    cache.drop(pageId(key, scope, page));
    return pagesOf(scope).deleteOne({ _id: pageId(key, scope, page) });
  };

  const deleteHead = (key: OwnerKey, scope: Scope) =>
    c.heads.deleteOne({ _id: headId(key, scope) });

  return {
    readHead,
    readPage,
    pageAt,
    place,
    remove,
    replace,
    deletePage,
    deleteHead,
  };
}

export type HistoryRepository = ReturnType<typeof createHistoryRepository>;

export type { HeadDoc };
