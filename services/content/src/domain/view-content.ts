import type { TrustedContext } from '@aict/contracts';
import type { ContentRecord, TurnItem } from '../data/layout';
import { loadVisibleContent } from './access';
import type { DomainDeps } from './domain-deps';

/** One message of a conversation: a turn of its thread, or the content alone (no thread). */
export type ConversationEntry = { turn: TurnItem } | { record: ContentRecord };

/**
 * GET /api/contents/:id: one content of the workspace in view (404 otherwise). `inView` is
 * the workspace the request acts in, already authorised (null: none).
 */
export async function getContent(
  d: DomainDeps,
  ctx: TrustedContext,
  id: string,
  inView: number | null,
): Promise<ContentRecord> {
  return loadVisibleContent(d, ctx, id, inView);
}

/**
 * GET /api/contents/:id/conversation: the thread of the content, oldest first, read from its
 * thread document by `_id`: the turns from the first message to this content (its parents),
 * then on to the latest reply (the newest child at each step). A plain thread is all of it.
 */
export async function getConversation(
  d: DomainDeps,
  ctx: TrustedContext,
  id: string,
  inView: number | null,
): Promise<ConversationEntry[]> {
  const record = await loadVisibleContent(d, ctx, id, inView);
  const thread = await d.contents.findThread(record.threadId);
  if (!thread || thread.key !== record.key || !thread.turns.some((t) => t.id === record._id))
    return [{ record }];
  return lineThrough(thread.turns, record).map((turn) => ({ turn }));
}

function lineThrough(turns: TurnItem[], record: ContentRecord): TurnItem[] {
  const byId = new Map(turns.map((t) => [t.id, t]));
  const up: TurnItem[] = [];
  const seen = new Set<string>();
  for (
    let t = byId.get(record._id);
    t && !seen.has(t.id);
    t = t.parentId ? byId.get(t.parentId) : undefined
  ) {
    seen.add(t.id);
    up.unshift(t);
  }
  const latestChild = new Map<string, TurnItem>();
  for (const t of turns) if (t.parentId) latestChild.set(t.parentId, t); // oldest first: last wins
  const down: TurnItem[] = [];
  for (let t = latestChild.get(record._id); t && !seen.has(t.id); t = latestChild.get(t.id)) {
    seen.add(t.id);
    down.push(t);
  }
  return [...up, ...down];
}
