import type { Collection } from 'mongoose';
import type { ContentCollections } from './collections';
import {
  compareItems,
  PAGE_SIZE,
  headId,
  insertSorted,
  pageId,
  type HeadDoc,
  type OwnerKey,
  type PageDoc,
  type Scope,
  type SummaryItem,
} from './layout';

// History pages ("bucket pattern"): per owner and scope, pages `<key>:<scope>:<n>` of up to
// `pageSize` items, oldest first inside a page, page numbers growing with time, and a head
// `<key>:<scope>` with the last page number (the search head also holds each search page's
// version). Every read and write is by `_id`. Writers of one owner are serialised by the
// caller (the owner's lock): FerretDB v1 applies an update as read-modify-write.

export interface Placement {
  page: number;
  ver: number;
  /** False when the item was there already (a repeated write). */
  changed: boolean;
}

type AnyPage = PageDoc<SummaryItem>;

export function createHistoryRepository(c: ContentCollections, pageSize = PAGE_SIZE) {
  const pagesOf = (scope: Scope) =>
    (scope === 'search' ? c.searchPages : c.pages) as unknown as Collection<AnyPage>;

  const readHead = (key: OwnerKey, scope: Scope) => c.heads.findOne({ _id: headId(key, scope) });

  const readPage = (key: OwnerKey, scope: Scope, page: number) =>
    pagesOf(scope).findOne({ _id: pageId(key, scope, page) });

  async function writePage(scope: Scope, page: AnyPage): Promise<void> {
    await pagesOf(scope).replaceOne(
      { _id: page._id },
      { ver: page.ver, items: page.items },
      { upsert: true },
    );
  }

  async function setHead(key: OwnerKey, scope: Scope, lastPage: number): Promise<void> {
    await c.heads.updateOne({ _id: headId(key, scope) }, { $set: { lastPage } }, { upsert: true });
  }

  async function setVersion(key: OwnerKey, page: number, ver: number): Promise<void> {
    await c.heads.updateOne(
      { _id: headId(key, 'search') },
      { $set: { [`v.${page}`]: ver } },
      { upsert: true },
    );
  }

  /**
   * The page an item with this sort key belongs to: the newest page whose first item is not
   * newer than it (empty pages skipped), starting at `hint` when given. Also the page read.
   */
  async function locate(
    key: OwnerKey,
    scope: Scope,
    item: { t: number; id: string },
    lastPage: number,
    hint?: number,
  ): Promise<{ page: number; doc: AnyPage | null; above: number | null }> {
    if (hint !== undefined && hint >= 0 && hint <= lastPage) {
      const doc = await readPage(key, scope, hint);
      if (doc?.items.some((i) => i.id === item.id)) return { page: hint, doc, above: null };
    }
    let above: number | null = null;
    for (let p = lastPage; p >= 0; p--) {
      const doc = await readPage(key, scope, p);
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
    if (lastPage < 0) {
      await writePage(scope, { _id: pageId(key, scope, 0), ver: 1, items: [item] });
      await setHead(key, scope, 0);
      return { page: 0, ver: 1, changed: true };
    }
    const found = await locate(key, scope, item, lastPage);
    let { page, doc } = found;
    const items = doc?.items ?? [];
    if (items.some((i) => i.id === item.id)) return { page, ver: doc!.ver, changed: false };
    const newest = items.length === 0 || compareItems(items[items.length - 1]!, item) < 0;
    if (items.length >= pageSize && newest) {
      // The page is full and the item comes after it: the next page (a new one at the end).
      page = found.above ?? lastPage + 1;
      doc = page <= lastPage ? await readPage(key, scope, page) : null;
    }
    const next = insertSorted(doc?.items ?? [], item);
    if (!next) return { page, ver: doc!.ver, changed: false };
    const ver = (doc?.ver ?? 0) + 1;
    await writePage(scope, { _id: pageId(key, scope, page), ver, items: next });
    if (page > lastPage) await setHead(key, scope, page);
    return { page, ver, changed: true };
  }

  /** Removes the item from the scope's pages (no-op when absent). Idempotent. */
  async function remove(
    key: OwnerKey,
    scope: Scope,
    item: { t: number; id: string },
    hint?: number,
  ): Promise<Placement | null> {
    const head = await readHead(key, scope);
    if (!head) return null;
    const { page, doc } = await locate(key, scope, item, head.lastPage, hint);
    if (!doc || !doc.items.some((i) => i.id === item.id)) return null;
    const ver = doc.ver + 1;
    await writePage(scope, { ...doc, ver, items: doc.items.filter((i) => i.id !== item.id) });
    return { page, ver, changed: true };
  }

  /** Replaces the item with the same id (no-op when absent or equal). Idempotent. */
  async function replace(
    key: OwnerKey,
    scope: Scope,
    item: SummaryItem,
    hint?: number,
  ): Promise<Placement | null> {
    const head = await readHead(key, scope);
    if (!head) return null;
    const { page, doc } = await locate(key, scope, item, head.lastPage, hint);
    const at = doc?.items.findIndex((i) => i.id === item.id) ?? -1;
    if (!doc || at < 0) return null;
    if (JSON.stringify(doc.items[at]) === JSON.stringify(item))
      return { page, ver: doc.ver, changed: false };
    const ver = doc.ver + 1;
    const items = [...doc.items];
    items[at] = item;
    await writePage(scope, { ...doc, ver, items });
    return { page, ver, changed: true };
  }

  const deletePage = (key: OwnerKey, scope: Scope, page: number) =>
    pagesOf(scope).deleteOne({ _id: pageId(key, scope, page) });

  const deleteHead = (key: OwnerKey, scope: Scope) =>
    c.heads.deleteOne({ _id: headId(key, scope) });

  return { readHead, readPage, place, remove, replace, setVersion, deletePage, deleteHead };
}

export type HistoryRepository = ReturnType<typeof createHistoryRepository>;

export type { HeadDoc };
