import type { SearchItem, SummaryItem } from './layout';

/** A page's items: search items (with their text `s`), or a history page's summaries. */
type PageItem = SummaryItem & { s?: string };

/** A rough heap size of one item: UTF-16 strings plus the object and its fields. */
function sizeOf(i: PageItem): number {
  const chars =
    (i.s?.length ?? 0) +
    i.content.length +
    i.title.length +
    i.metadata.length +
    i.id.length +
    i.userId.length;
  return 2 * chars + 600;
}

interface Entry {
  ver: number;
  items: PageItem[];
  bytes: number;
  /** The search that last used it. */
  scan: number;
}

/**
 * Pages already read or written, by page `_id`, valid for one version (a head lists the
 * current version of each of its pages, so a changed page is read again): the search pages
 * a search reads, and the pages of every scope the store writes (history.repository.ts).
 * Least recently used pages go first once `maxBytes` (an estimate: UTF-16 strings plus a
 * fixed cost per item) is reached. The items are shared: never changed in place.
 */
export class SearchPageCache {
  private readonly entries = new Map<string, Entry>();
  private used = 0;

  constructor(private readonly maxBytes: number) {}

  private scans = 0;

  /** A token for one search: a search never evicts pages it has used itself. */
  newScan(): number {
    return ++this.scans;
  }

  get<I extends PageItem = SearchItem>(id: string, ver: number, scan = 0): I[] | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    // A newer version than the caller's head lists (written since it read the head) stays.
    if (entry.ver > ver) return undefined;
    this.entries.delete(id);
    if (entry.ver !== ver) {
      this.used -= entry.bytes;
      return undefined;
    }
    entry.scan = scan;
    this.entries.set(id, entry); // most recently used last
    return entry.items as I[];
  }

  /**
   * Keeps a page, evicting the least recently used ones; but not those the same search used
   * (a scan longer than the cache would otherwise evict, page by page, what the next scan
   * needs first): the page is then not kept.
   */
  set(id: string, ver: number, items: PageItem[], scan = 0): void {
    const old = this.entries.get(id);
    if (old) {
      this.entries.delete(id);
      this.used -= old.bytes;
    }
    const bytes = items.reduce((n, i) => n + sizeOf(i), 200);
    if (bytes > this.maxBytes) return;
    const victims: string[] = [];
    let freed = 0;
    for (const [key, entry] of this.entries) {
      if (this.used - freed + bytes <= this.maxBytes) break;
      if (scan !== 0 && entry.scan === scan) return;
      victims.push(key);
      freed += entry.bytes;
    }
    for (const key of victims) this.entries.delete(key);
    this.used -= freed;
    this.entries.set(id, { ver, items, bytes, scan });
    this.used += bytes;
  }

  /** Forgets one page. */
  drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.used -= entry.bytes;
  }

  /** Forgets every page whose id starts with `prefix` (an owner's pages, when it goes). */
  dropPrefix(prefix: string): void {
    for (const [key, entry] of this.entries) {
      if (!key.startsWith(prefix)) continue;
      this.entries.delete(key);
      this.used -= entry.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.used;
  }
}
