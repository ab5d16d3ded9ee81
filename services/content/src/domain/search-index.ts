import type { Logger } from '@aict/service-kit';
import { headId, type HeadDoc, type OwnerKey, type SearchItem } from '../data/layout';
import { gramsOf } from '../data/trigrams';
import type { DomainDeps } from './domain-deps';

// Upkeep of the search's trigram index (README "Search index"). It is off the store's
// critical path: a write of a search page (store, delete, review) only schedules the page
// here; one worker per process brings the page's postings up to the page's version after the
// write is acknowledged, one page at a time, yielding between pages. The search never
// depends on it being done: a page whose version the marker does not list (`iv`) is read and
// checked whole, so results are exact at once; the lag only costs page reads.

type IndexDeps = Pick<DomainDeps, 'history' | 'index' | 'locks' | 'logger'>;

/** The in-process lock of an owner's index (the upkeep, a rebuild, the workspace deletion). */
export const indexLock = (key: string) => `index:${key}`;

/** Search pages read at once while rebuilding. */
const PARALLEL = 8;

/**
 * An owner without a marker with at most this many search pages gets its index built whole
 * by the upkeep (one from before the index; a new owner's first store writes its marker).
 * Larger ones search by scanning until the reindex command has built theirs.
 */
export const AUTO_BUILD_PAGES = 8;

/**
 * How long the upkeep waits after the first page is scheduled before it starts: the stores
 * of a burst into one page (the owner's last) then cost one upkeep, not one each, and do
 * not compete with it for the database while they run.
 */
export const UPKEEP_DELAY_MS = 300;

/**
 * The pages waiting for their index upkeep, per owner (a page scheduled again while it waits
 * is one upkeep), worked through by one worker, owners in turn, starting UPKEEP_DELAY_MS after
 * the first page is scheduled. Bounded by the pages written
 * meanwhile; lost with the process (a crash): the repair's catch-up (`catchUpIndex`) and
 * the next write of the page schedule them again.
 */
export class IndexQueue {
  /** Per owner, the pages waiting and the version their writer recorded (none: read the head). */
  private readonly due = new Map<OwnerKey, Map<number, number | undefined>>();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly run: (key: OwnerKey, page: number, ver?: number) => Promise<void>,
    private readonly logger: Logger,
    private readonly delayMs = UPKEEP_DELAY_MS,
  ) {}

  /** Pages waiting (not counting the one in progress). */
  get size(): number {
    let n = 0;
    for (const pages of this.due.values()) n += pages.size;
    return n;
  }

  /**
   * `ver`: the page's version its writer just recorded in the head (the upkeep then reads no
   * head); a page scheduled again keeps the newest, or none when one came without.
   */
  schedule(key: OwnerKey, page: number, ver?: number): void {
    if (this.stopped) return;
    const pages = this.due.get(key) ?? new Map<number, number | undefined>();
    this.due.set(key, pages);
    const before = pages.get(page);
    const merged = !pages.has(page)
      ? ver
      : before === undefined || ver === undefined
        ? undefined
        : Math.max(before, ver);
    pages.set(page, merged);
    this.kick();
  }

  /** Forgets an owner's waiting pages (its index is being dropped). */
  forget(key: OwnerKey): void {
    this.due.delete(key);
  }

  /** Resolves once nothing waits and nothing runs. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no more pages, waits for the one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.due.clear();
    await this.idle();
  }

  private kick(): void {
    if (this.running || this.stopped || this.due.size === 0) return;
    const wait = new Promise<void>((resolve) => setTimeout(resolve, this.delayMs).unref());
    this.running = wait
      .then(() => this.drain())
      .finally(() => {
        this.running = null;
        this.kick();
      });
  }

  private take(): { key: OwnerKey; page: number; ver: number | undefined } | null {
    const first = this.due.entries().next();
    if (first.done) return null;
    const [key, pages] = first.value;
    const [page, ver] = pages.entries().next().value!;
    pages.delete(page);
    this.due.delete(key);
    if (pages.size > 0) this.due.set(key, pages); // the owner goes to the end: owners in turn
    return { key, page, ver };
  }

  private async drain(): Promise<void> {
    for (;;) {
      // Yield first: what the caller and HTTP requests have to do comes before the upkeep.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.stopped) return;
      const next = this.take();
      if (!next) return;
      try {
        await this.run(next.key, next.page, next.ver);
      } catch (err) {
        // The page stays unindexed: searches read it whole; its next write retries.
        this.logger.warn({ err, ...next }, 'search index upkeep failed for a page');
      }
    }
  }
}

/** The distinct grams of a page's items. */
function pageGrams(items: readonly SearchItem[]): Set<string> {
  const out = new Set<string>();
  for (const item of items) for (const g of gramsOf(item.s)) out.add(g);
  return out;
}

/** The page at the version the head lists (from the store's cache when it wrote that one). */
async function readSearchPage(d: IndexDeps, key: OwnerKey, page: number, head: HeadDoc | null) {
  const doc = await d.history.pageAt(key, 'search', page, head);
  return { ver: doc?.ver ?? 0, items: (doc?.items ?? []) as SearchItem[] };
}

/** Adds what the page's postings lack (idempotent: only grams its record does not list). */
async function addPage(
  d: IndexDeps,
  key: OwnerKey,
  page: number,
  items: readonly SearchItem[],
  gen?: string,
): Promise<void> {
  const known = await d.index.readPageGrams(key, page, gen);
  const fresh: string[] = [];
  for (const g of pageGrams(items)) if (!known.has(g)) fresh.push(g);
  await d.index.addToPage(key, page, known, fresh, gen);
}

/**
 * The upkeep of one search page (IndexQueue's work): makes the postings hold the page's
 * items at its current version, then records that version in the marker. Idempotent; a
 * page already indexed at its version costs two reads. An owner without a marker gets its
 * index built whole when it is small (AUTO_BUILD_PAGES), else it keeps searching by scan.
 * `ver`: the version the page's writer recorded in the head, which then is not read (the
 * page itself is read when the cache holds another version: a newer one is indexed).
 */
export async function indexPage(
  d: IndexDeps,
  key: OwnerKey,
  page: number,
  ver?: number,
): Promise<void> {
  await d.locks.run(indexLock(key), async () => {
    const [marker, read] = await Promise.all([
      d.index.readMarker(key),
      ver === undefined ? d.history.readHead(key, 'search') : undefined,
    ]);
    if (marker.ready) {
      const head = read === undefined ? writtenHead(key, page, ver!) : read;
      if (!head) return; // nothing stored, or the workspace was deleted
      const current = await readSearchPage(d, key, page, head);
      // A page gone (the workspace deleted meanwhile) has version 0.
      if (current.ver === 0 || marker.iv[page] === current.ver) return;
      await addPage(d, key, page, current.items, marker.gen);
      await d.index.setIndexed(key, marker, page, current.ver);
      return;
    }
    const head = read === undefined ? await d.history.readHead(key, 'search') : read;
    if (!head) return;
    if (head.lastPage >= AUTO_BUILD_PAGES) {
      if (d.index.firstReport(key))
        d.logger.warn(
          { key, pages: head.lastPage + 1 },
          'search index missing for this owner (pages from before it); searches scan until `npm run reindex`',
        );
      return;
    }
    const iv: Record<string, number> = {};
    for (let p = 0; p <= head.lastPage; p++) {
      const { ver: at, items } = await readSearchPage(d, key, p, head);
      await addPage(d, key, p, items);
      if (at > 0) iv[p] = at;
    }
    await d.index.markReady(key, iv);
  });
}

/** The head as far as the page's writer recorded it: that page at that version. */
const writtenHead = (key: OwnerKey, page: number, ver: number): HeadDoc => ({
  _id: headId(key, 'search'),
  lastPage: page,
  v: { [page]: ver },
});

/**
 * The crash repair's part for the index (run once at start, in the background): every
 * owner's search pages whose version the marker does not hold (upkeep lost with a stopped
 * process, or writes of another instance) are scheduled. Reads the heads (a scan of a small
 * collection), then the head and marker of each owner by `_id`. How many pages it scheduled.
 */
export async function catchUpIndex(d: DomainDeps): Promise<number> {
  let scheduled = 0;
  for (const key of await d.index.ownersWithSearchPages()) {
    const [head, marker] = await Promise.all([
      d.history.readHead(key, 'search'),
      d.index.readMarker(key),
    ]);
    if (!head) continue;
    if (!marker.ready) {
      if (head.lastPage < AUTO_BUILD_PAGES) {
        d.indexer.schedule(key, 0);
        scheduled++;
      }
      continue;
    }
    for (const p of pagesBehind(head.v, marker.iv, head.lastPage)) {
      d.indexer.schedule(key, p);
      scheduled++;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return scheduled;
}

/**
 * Search pages up to `maxPage` whose current version (`v`, the head) is not the version the
 * postings hold (`iv`, the marker), newest first: these the search reads whole.
 */
export function pagesBehind(
  v: Readonly<Record<string, number>> | undefined,
  iv: Readonly<Record<string, number>>,
  maxPage: number,
): number[] {
  const out: number[] = [];
  for (const [page, ver] of Object.entries(v ?? {})) {
    const p = Number(page);
    if (p <= maxPage && iv[page] !== ver) out.push(p);
  }
  return out.sort((a, b) => b - a);
}

export interface ReindexResult {
  key: string;
  pages: number;
  trigrams: number;
}

/**
 * Rebuilds one owner's index exactly from its search pages (stale bits of deleted items
 * go). Searches scan while it runs. Pages written meanwhile (by this or another process) are
 * indexed again at the end; see README for running it beside the service.
 */
export async function reindexOwner(d: IndexDeps, key: string): Promise<ReindexResult> {
  return d.locks.run(indexLock(key), async () => {
    await d.index.drop(key);
    const head = await d.history.readHead(key, 'search');
    if (!head) return { key, pages: 0, trigrams: 0 };
    const seen: Record<string, number> = {};
    const pages = new Map<number, Set<string>>();
    for (let p = 0; p <= head.lastPage; p += PARALLEL) {
      const batch: number[] = [];
      for (let n = p; n <= Math.min(head.lastPage, p + PARALLEL - 1); n++) batch.push(n);
      const read = await Promise.all(batch.map((n) => readSearchPage(d, key, n, head)));
      batch.forEach((n, i) => {
        pages.set(n, pageGrams(read[i]!.items));
        if (read[i]!.ver > 0) seen[n] = read[i]!.ver;
      });
    }
    const trigrams = await d.index.load(key, pages);
    // Pages changed while this ran: their items are added (bits only grow).
    const now = await d.history.readHead(key, 'search');
    const lastPage = now?.lastPage ?? head.lastPage;
    for (let p = 0; p <= lastPage; p++) {
      if (p <= head.lastPage && (now?.v?.[p] ?? seen[p]) === seen[p]) continue;
      // Changed since: read as stored now (the head may not list its version yet).
      const { ver, items } = await readSearchPage(d, key, p, null);
      await addPage(d, key, p, items);
      if (ver > 0) seen[p] = ver;
    }
    await d.index.markReady(key, seen);
    return { key, pages: lastPage + 1, trigrams };
  });
}
