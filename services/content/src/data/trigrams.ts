import type { StoredList } from '@aict/service-kit';
import type { OwnerKey } from './layout';

// The search index's pure parts (see README "Search index"): trigrams of the lower-cased
// search text, and page sets as bitsets of 32-bit chunks (`b.<chunk>` = an int32 whose bit
// `page % 32` says the page may hold the trigram). Stored as separate integer fields so that a
// new bit is one `$bit: { or }` (atomic on MongoDB) and a lookup reads one small document.

/** The longest gram indexed (trigrams; shorter grams too, for 1–2 character queries). */
export const GRAM = 3;
/** Trigrams of a query read at most (spread over the query; any subset only widens the set). */
export const QUERY_GRAMS = 12;

/** A posting: which search pages of an owner may contain a trigram. */
export interface PostingDoc {
  _id: string;
  key: OwnerKey;
  /** Chunk number → int32 bit mask of pages `chunk * 32 + bit`. */
  b?: Record<string, number>;
  /** The owner's marker document only: the index covers every search page. */
  ready?: boolean;
  /** The marker only: changes with every rebuild (cached postings of another are stale). */
  gen?: string;
  /**
   * The marker only: search page → the version of it the postings hold (layout.ts
   * StoredVersions: one string, or the map in documents written before).
   */
  iv?: string | Record<string, number>;
}

/** The trigrams of one search page whose postings hold the page (`_id` = the page's `_id`). */
export interface PageGramsDoc {
  _id: string;
  key: OwnerKey;
  /**
   * The grams as one string (StoredList): a gram may hold any character, and a page's few
   * hundred grams are read and replaced whole at every upkeep of the page.
   */
  g: StoredList<string>;
}

/** A posting's `_id`: the gram's length first, so that no two (owner, gram) pairs share one. */
export const postingId = (key: OwnerKey, gram: string) => `g${gram.length}:${gram}:${key}`;
/** The owner's "index complete" marker. */
export const readyId = (key: OwnerKey) => `ready:${key}`;

/**
 * Distinct grams of an already lower-cased text: every substring of 1 to GRAM characters
 * (UTF-16 units, as `includes` compares), so that queries of any length can use the index.
 */
export function gramsOf(s: string): Set<string> {
  const out = new Set<string>();
  for (let n = 1; n <= GRAM; n++)
    for (let i = 0; i + n <= s.length; i++) out.add(s.slice(i, i + n));
  return out;
}

/**
 * The grams a query is looked up by: its trigrams (its single gram when shorter), at most
 * `max`, spread from its start to its end (any subset only widens the candidate pages).
 */
export function queryGrams(needle: string, max = QUERY_GRAMS): string[] {
  const n = Math.min(GRAM, needle.length);
  const set = new Set<string>();
  for (let i = 0; i + n <= needle.length; i++) set.add(needle.slice(i, i + n));
  const all = [...set];
  if (all.length <= max) return all;
  const picked = new Set<string>();
  for (let i = 0; i < max; i++) picked.add(all[Math.round((i * (all.length - 1)) / (max - 1))]!);
  return [...picked];
}

export const chunkOf = (page: number) => Math.floor(page / 32);
export const maskOf = (page: number) => 1 << (page % 32);

/** `$bit` operations that add these pages to a posting. */
export function bitUpdate(pages: Iterable<number>): Record<string, { or: number }> {
  const masks = new Map<number, number>();
  for (const p of pages) masks.set(chunkOf(p), (masks.get(chunkOf(p)) ?? 0) | maskOf(p));
  const out: Record<string, { or: number }> = {};
  for (const [chunk, mask] of masks) out[`b.${chunk}`] = { or: mask };
  return out;
}

/** The bitset fields holding exactly these pages (bulk loading). */
export function bitsOf(pages: Iterable<number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [field, { or }] of Object.entries(bitUpdate(pages))) out[field.slice(2)] = or;
  return out;
}

/** Pages present in every posting, newest first, not above `maxPage`. */
export function intersectPages(
  postings: ReadonlyArray<ArrayLike<number>>,
  maxPage: number,
): number[] {
  if (postings.length === 0) return [];
  const out: number[] = [];
  for (let chunk = chunkOf(maxPage); chunk >= 0; chunk--) {
    let mask = -1;
    for (const b of postings) {
      mask &= b[chunk] ?? 0;
      if (mask === 0) break;
    }
    for (let bit = 31; bit >= 0 && mask !== 0; bit--) {
      const page = chunk * 32 + bit;
      if (page <= maxPage && (mask >>> bit) & 1) out.push(page);
    }
  }
  return out;
}
