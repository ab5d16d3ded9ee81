import type { Envelope } from '@aict/service-kit';
import {
  hasApplied,
  withApplied,
  compareItems,
  insertSorted,
  itemFor,
  scopesOf,
  turnOf,
  type ContentRecord,
  type CountersDoc,
  type OwnerKey,
  type ReviewCopy,
  type Scope,
} from '../data/layout';
import type { ReviewState } from '@aict/contracts';
import type { DomainDeps } from './domain-deps';
import { tallyDeleted, tallyReviewed, tallyStored } from './prompt-results';

// The documents derived from a record (history pages and heads, search pages and their
// versions, the thread, the counters, its prompt's results), brought up to date after the record was written or
// deleted. Every function here is idempotent, so the repair can run it again after a crash;
// the caller holds the owner's lock (FerretDB v1 updates are not isolated).

/** Adds a stored record to every derived document. */
export async function applyStored(d: DomainDeps, r: ContentRecord): Promise<void> {
  const placed = await Promise.all(
    scopesOf(r.contentType).map(async (scope) => {
      // Records the page's version in the head, also when unchanged (a crash may have come
      // before it was). The index follows the version off the critical path (IndexQueue).
      const at = await d.history.place(r.key, scope, itemFor(scope, r));
      if (scope !== 'search') return [scope, at.page] as const;
      // A new owner's index exists from its first page (none indexed yet: searched whole
      // until the upkeep), so a burst of stores before the first upkeep cannot leave it
      // too large to be built whole (AUTO_BUILD_PAGES) and searching by scan.
      if (at.first) await d.index.markReady(r.key, {});
      d.indexer.schedule(r.key, at.page, at.ver);
      return [scope, at.page] as const;
    }),
  );
  const at = Object.fromEntries(placed) as Partial<Record<Scope, number>>;
  await Promise.all([
    d.contents.setPlacement(r._id, at),
    addTurn(d, r),
    applyCounters(d, r.key, `+${r._id}`, r, 1),
    tallyStored(d, r),
  ]);
}

/** Removes a deleted record (its tombstone) from every derived document. */
export async function applyDeleted(d: DomainDeps, r: ContentRecord): Promise<void> {
  const item = { t: r.createdAt.getTime(), id: r._id };
  await Promise.all(
    scopesOf(r.contentType).map(async (scope) => {
      const removed = await d.history.remove(r.key, scope, item, r.at?.[scope]);
      if (!removed) return;
      if (scope === 'search') d.indexer.schedule(r.key, removed.page, removed.ver);
    }),
  );
  await Promise.all([
    removeTurn(d, r),
    applyCounters(d, r.key, `-${r._id}`, r, -1),
    tallyDeleted(d, r),
  ]);
}

/**
 * Brings the copies of a content's review (its history and search items, its thread turn,
 * the counters, the record) up to the latest version of its review chain, whichever change
 * wrote it: run by every change, in any order, they end at the latest. Idempotent.
 */
export async function applyReview(d: DomainDeps, r: ContentRecord): Promise<ContentRecord> {
  const latest = await d.reviews.latest(r._id);
  if (!latest || (r.review && r.review.rev >= latest.n)) return r;
  const review: ReviewCopy = { ...latest.value, rev: latest.n };
  const next: ContentRecord = { ...r, review };
  await Promise.all(
    scopesOf(r.contentType).map(async (scope) => {
      const done = await d.history.replace(r.key, scope, itemFor(scope, next), r.at?.[scope]);
      if (!done) return;
      if (scope === 'search') d.indexer.schedule(r.key, done.page, done.ver);
    }),
  );
  await replaceTurn(d, next);
  const op = `r${latest.n}:${r._id}`;
  await applyReviewCount(d, r.key, op, r.review?.state, review.state);
  await tallyReviewed(d, r, op, r.review?.state, review.state);
  await d.contents.setReview(r._id, review);
  return next;
}

async function replaceTurn(d: DomainDeps, r: ContentRecord): Promise<void> {
  const thread = await d.contents.findThread(r.threadId);
  const at = thread && thread.key === r.key ? thread.turns.findIndex((t) => t.id === r._id) : -1;
  if (!thread || at < 0) return;
  const turns = [...thread.turns];
  turns[at] = turnOf(r);
  await d.contents.saveThread(r.threadId, thread.key, turns, false);
}

/** One content moved from review state `from` (none: a draft) to `to`. Idempotent by `op`. */
async function applyReviewCount(
  d: DomainDeps,
  key: OwnerKey,
  op: string,
  from: ReviewState | undefined,
  to: ReviewState,
): Promise<void> {
  const doc = (await d.counters.findByKey(key)) ?? emptyCounters(key);
  if (hasApplied(doc.applied, op) || doc.closed) return;
  const reviews = { ...doc.reviews };
  if (from && from !== 'draft') reviews[from] = Math.max(0, (reviews[from] ?? 0) - 1);
  if (to !== 'draft') reviews[to] = (reviews[to] ?? 0) + 1;
  await d.counters.save({
    ...emptyCounters(key),
    ...doc,
    reviews,
    applied: withApplied(doc.applied, op),
  });
}

async function addTurn(d: DomainDeps, r: ContentRecord): Promise<void> {
  const thread = await d.contents.findThread(r.threadId);
  if (thread && thread.key !== r.key) {
    d.logger.warn(
      { contentId: r._id, threadId: r.threadId },
      'thread of another owner; not joined',
    );
    return;
  }
  const turns = insertSorted(thread?.turns ?? [], turnOf(r));
  if (!turns) return;
  await d.contents.saveThread(r.threadId, r.key, turns, true);
}

async function removeTurn(d: DomainDeps, r: ContentRecord): Promise<void> {
  const thread = await d.contents.findThread(r.threadId);
  if (!thread || thread.key !== r.key || !thread.turns.some((t) => t.id === r._id)) return;
  const turns = thread.turns.filter((t) => t.id !== r._id);
  if (turns.length === 0) await d.contents.deleteThread(r.threadId);
  else await d.contents.saveThread(r.threadId, thread.key, turns, false);
}

export function emptyCounters(key: OwnerKey): CountersDoc {
  return {
    _id: key,
    text: 0,
    image: 0,
    promptTokens: 0,
    completionTokens: 0,
    images: 0,
    applied: '',
  };
}

/**
 * Counts (+1/−1 of the record's type) and usage (added once, kept after a delete: it was
 * spent). `op` is remembered in the document itself, in the same write, so a repeated
 * operation changes nothing.
 */
async function applyCounters(
  d: DomainDeps,
  key: OwnerKey,
  op: string,
  r: ContentRecord,
  sign: 1 | -1,
): Promise<void> {
  const doc = (await d.counters.findByKey(key)) ?? emptyCounters(key);
  if (hasApplied(doc.applied, op) || doc.closed) return;
  const next: CountersDoc = { ...emptyCounters(key), ...doc };
  next[r.contentType] = Math.max(0, next[r.contentType] + sign);
  const reviewed = r.review?.state;
  if (sign < 0 && reviewed && reviewed !== 'draft' && next.reviews?.[reviewed])
    next.reviews = { ...next.reviews, [reviewed]: Math.max(0, next.reviews[reviewed] - 1) };
  if (sign > 0) {
    next.promptTokens += r.usage.promptTokens;
    next.completionTokens += r.usage.completionTokens;
    next.images += r.usage.images;
  }
  next.applied = withApplied(doc.applied, op);
  await d.counters.save(next);
}

/** Publishes a pending write's event, then forgets the pending write. */
export async function finishPending(d: DomainDeps, pendingId: string, event: Envelope) {
  await d.bus.publishEnvelopes([event]);
  await d.pending.remove(pendingId);
}

/** Newest first. */
export const newestFirst = (a: { t: number; id: string }, b: { t: number; id: string }) =>
  compareItems(b, a);
