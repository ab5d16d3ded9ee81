import { randomUUID } from 'node:crypto';
import type { mongo } from 'mongoose';
import { LruCache, readList, storeList } from '@aict/service-kit';
import type { ContentCollections } from './collections';
import { decodeVersions, encodeVersions, pageId, type OwnerKey } from './layout';
import { bitUpdate, postingId, readyId, type PostingDoc } from './trigrams';

// The search index's documents (README "Search index"), all read and written by `_id`:
// postings `g<n>:<gram>:<key>` (bitsets of search pages), per search page the grams already
// in its postings (`<key>:search:<n>`), and the owner's marker `ready:<key>` (the index is
// complete; `iv`: the version of each search page the index holds, one string as the heads'
// `v`: layout.ts StoredVersions). A bit is only ever added
// (`$bit: { or }`, atomic on MongoDB); on FerretDB v1 an update is a read-modify-write, so
// one writer per process (the domain's IndexQueue, one page at a time) writes them. Stale
// bits (deleted items) only cost a page read.

/**
 * Posting updates sent in one bulk write. Small: FerretDB v1.24 (SQLite) never answers an
 * update command of ~100 upserts of existing documents (found here: 50 take ~130 ms, 100
 * hang), so a page's fresh grams go in batches of 50.
 */
const BULK = 50;

/**
 * Postings already read, by `_id`, valid for one stamp: the marker's generation (a rebuild
 * changes it) and the sum of its page versions (the upkeep raises one after each posting
 * write). Bounded by entries (a bitset of 100k items is ~250 bytes).
 */
class PostingCache {
  private readonly entries = new Map<string, { stamp: string; bits: Int32Array }>();

  constructor(private readonly max: number) {}

  get(id: string, stamp: string): Int32Array | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.stamp !== stamp) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry); // most recently used last
    return entry.bits;
  }

  set(id: string, stamp: string, bits: Int32Array): void {
    this.entries.delete(id);
    this.entries.set(id, { stamp, bits });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

/** A stored bitset (`b.<chunk>` fields) as an array indexed by chunk. */
function toArray(b: Record<string, number> | undefined): Int32Array {
  const chunks = Object.keys(b ?? {}).map(Number);
  const out = new Int32Array(chunks.length === 0 ? 0 : Math.max(...chunks) + 1);
  for (const chunk of chunks) out[chunk] = b![String(chunk)]!;
  return out;
}

/** Postings kept in memory per process. */
const POSTING_CACHE_ENTRIES = 20_000;

/**
 * Search pages whose grams (as their record holds them) are kept in memory per process: the
 * last page of each owner storing now is the one the upkeep reads; a page of 50 long texts
 * holds a few thousand grams.
 */
const PAGE_GRAMS_ENTRIES = 256;

/** The owner's marker as the search and the upkeep read it. */
export interface IndexMarker {
  /** The index holds every search page at least at the version `iv` names. */
  ready: boolean;
  /** Changes with every rebuild (cached postings of another are stale). */
  gen: string;
  /** Search page → the version of it the postings hold (a page absent: not indexed). */
  iv: Record<string, number>;
}

export function createSearchIndexRepository(c: ContentCollections) {
  const cache = new PostingCache(POSTING_CACHE_ENTRIES);
  /**
   * A page's grams as this process last read or wrote its record, valid for one generation of
   * the owner's marker: this process's upkeep is the record's one writer, and a rebuild (or a
   * drop, then a build) comes with a new generation.
   */
  const pageGrams = new LruCache<string, { gen: string; grams: ReadonlySet<string> }>(
    PAGE_GRAMS_ENTRIES,
  );
  /** Owners already reported as incomplete (one warning per owner and process). */
  const reported = new Set<OwnerKey>();

  /** Adds the pages to the grams' postings: one unordered bulk write of upserts per BULK grams. */
  async function orPages(key: OwnerKey, byGram: Map<string, Iterable<number>>): Promise<void> {
    const ops: mongo.AnyBulkWriteOperation<PostingDoc>[] = [];
    for (const [gram, pages] of byGram)
      ops.push({
        updateOne: {
          filter: { _id: postingId(key, gram) },
          update: { $bit: bitUpdate(pages), $setOnInsert: { key } } as never,
          upsert: true,
        },
      });
    for (let i = 0; i < ops.length; i += BULK)
      await c.postings.bulkWrite(ops.slice(i, i + BULK), { ordered: false });
  }

  /**
   * The grams whose postings already hold page `page`. `gen`: the generation of the owner's
   * marker the caller read (a ready index), which lets the page's record come from memory.
   */
  async function readPageGrams(
    key: OwnerKey,
    page: number,
    gen?: string,
  ): Promise<ReadonlySet<string>> {
    const id = pageId(key, 'search', page);
    const kept = gen ? pageGrams.get(id) : undefined;
    if (kept && kept.gen === gen) return kept.grams;
    const doc = await c.pageGrams.findOne({ _id: id });
    const grams = new Set(readList(doc?.g));
    if (gen) pageGrams.set(id, { gen, grams });
    return grams;
  }

  /**
   * Makes page `page`'s postings hold these grams (not yet in them): postings first, then
   * the page's record, so a crash in between repeats the postings, never skips them.
   */
  async function addToPage(
    key: OwnerKey,
    page: number,
    known: ReadonlySet<string>,
    fresh: readonly string[],
    gen?: string,
  ): Promise<void> {
    if (fresh.length === 0) return;
    const id = pageId(key, 'search', page);
    pageGrams.delete(id); // a failed write leaves nothing kept that might not be stored
    await orPages(key, new Map(fresh.map((g) => [g, [page]])));
    const grams = new Set([...known, ...fresh]);
    await c.pageGrams.replaceOne({ _id: id }, { key, g: storeList(grams) }, { upsert: true });
    if (gen) pageGrams.set(id, { gen, grams });
  }

  async function readMarker(key: OwnerKey): Promise<IndexMarker> {
    const marker = await c.postings.findOne({ _id: readyId(key) });
    return {
      ready: marker?.ready === true,
      gen: marker?.gen ?? '',
      iv: decodeVersions(marker?.iv),
    };
  }

  /**
   * The bitsets of these grams (empty: no page holds it). `stamp` names the state of the
   * owner's index the caller read before this call (see PostingCache).
   */
  async function readPostings(
    key: OwnerKey,
    grams: readonly string[],
    stamp: string,
  ): Promise<Int32Array[]> {
    const ids = grams.map((g) => postingId(key, g));
    return Promise.all(
      ids.map(async (id) => {
        const cached = cache.get(id, stamp);
        if (cached) return cached;
        const doc = await c.postings.findOne({ _id: id }, { projection: { b: 1 } });
        const bits = toArray(doc?.b);
        cache.set(id, stamp, bits);
        return bits;
      }),
    );
  }

  /**
   * Records that the postings hold page `page` at version `ver` in the marker `marker` the
   * caller read (under the owner's index lock, which every writer of the marker holds); the
   * marker must exist.
   */
  async function setIndexed(
    key: OwnerKey,
    marker: IndexMarker,
    page: number,
    ver: number,
  ): Promise<void> {
    const iv = encodeVersions({ ...marker.iv, [page]: ver });
    await c.postings.updateOne({ _id: readyId(key) }, { $set: { iv } });
  }

  /** Writes the marker of a complete index (a new generation) holding these page versions. */
  async function markReady(key: OwnerKey, iv: Record<string, number>): Promise<void> {
    await c.postings.replaceOne(
      { _id: readyId(key) },
      { key, ready: true, gen: randomUUID(), iv: encodeVersions(iv) },
      { upsert: true },
    );
  }

  /** Removes the owner's whole index (marker first: searches then scan until it is back). */
  async function drop(key: OwnerKey): Promise<void> {
    await c.postings.deleteOne({ _id: readyId(key) });
    await c.postings.deleteMany({ key });
    await c.pageGrams.deleteMany({ key });
  }

  /** Writes a freshly built index of an owner (after `drop`): postings, then page records. */
  async function load(key: OwnerKey, pages: Map<number, Set<string>>): Promise<number> {
    const byGram = new Map<string, number[]>();
    for (const [page, grams] of pages)
      for (const g of grams) {
        const list = byGram.get(g);
        if (list) list.push(page);
        else byGram.set(g, [page]);
      }
    await orPages(key, byGram);
    const records = [...pages].map(([page, grams]) => ({
      _id: pageId(key, 'search', page),
      key,
      g: storeList(grams),
    }));
    for (let i = 0; i < records.length; i += 100)
      await c.pageGrams.insertMany(records.slice(i, i + 100), { ordered: false });
    return byGram.size;
  }

  /** Every owner with search pages (from the heads: a scan of a small collection). */
  async function ownersWithSearchPages(): Promise<OwnerKey[]> {
    const heads = await c.heads.find({}, { projection: { _id: 1 } }).toArray();
    return heads
      .map((h) => h._id)
      .filter((id) => id.endsWith(':search'))
      .map((id) => id.slice(0, -':search'.length));
  }

  /** True the first time an owner is reported as incomplete by this process. */
  function firstReport(key: OwnerKey): boolean {
    if (reported.has(key)) return false;
    reported.add(key);
    return true;
  }

  return {
    readPageGrams,
    addToPage,
    readMarker,
    readPostings,
    setIndexed,
    markReady,
    drop,
    load,
    ownersWithSearchPages,
    firstReport,
  };
}

export type SearchIndexRepository = ReturnType<typeof createSearchIndexRepository>;
