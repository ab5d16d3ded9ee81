import type { SearchItem } from '../data/layout';

/** A rough heap size of one item: UTF-16 strings plus the object and its fields. */
function sizeOf(i: SearchItem): number {
  const chars =
    i.s.length +
    i.content.length +
    i.title.length +
    i.metadata.length +
    i.id.length +
    i.userId.length;
  return 2 * chars + 600;
}

interface Entry {
  ver: number;
  items: SearchItem[];
  bytes: number;
  /** The search that last used it. */
  scan: number;
}

/**
 * Search pages already read, by page `_id`, valid for one version (the search head lists the
 * current version of each page, so a changed page is read again). Least recently used pages
 * go first once `maxBytes` (an estimate: UTF-16 strings plus a fixed cost per item) is reached.
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

  get(id: string, ver: number, scan = 0): SearchItem[] | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    if (entry.ver !== ver) {
      this.used -= entry.bytes;
      return undefined;
    }
    entry.scan = scan;
    this.entries.set(id, entry); // most recently used last
    return entry.items;
  }

  /**
   * Keeps a page, evicting the least recently used ones; but not those the same search used
   * (a scan longer than the cache would otherwise evict, page by page, what the next scan
   * needs first): the page is then not kept.
   */
  set(id: string, ver: number, items: SearchItem[], scan = 0): void {
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
