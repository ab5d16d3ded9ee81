import type { ContentItem, ContentReview } from '@aict/contracts';
import type { ContentRecord, ReviewCopy, SummaryItem, TurnItem } from '../data/layout';
import type { ConversationEntry } from '../domain/view-content';

// The only place a stored content becomes a ContentItem. Optional fields are absent when
// unset (never null). In lists `content` is the preview (SPEC: the first 80 characters of a
// text; an image's URL) and `metadata` its small entries: GET /api/contents/:id has the rest.

function parseMetadata(json: string): ContentItem['metadata'] {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as ContentItem['metadata'])
      : {};
  } catch {
    return {};
  }
}

/** The review as a ContentItem shows it: a draft when it never changed. */
export function presentReview(review: ReviewCopy | undefined): ContentReview {
  if (!review) return { state: 'draft' };
  const out: ContentReview = { state: review.state, at: review.at };
  if (review.comment !== undefined) out.comment = review.comment;
  if (review.by !== undefined) out.by = review.by;
  return out;
}

function present(item: SummaryItem, content: string, metadata: string): ContentItem {
  const out: ContentItem = {
    id: item.id,
    title: item.title,
    content,
    contentType: item.contentType,
    model: item.model,
    language: item.language,
    userId: item.userId,
    metadata: parseMetadata(metadata),
    createdAt: new Date(item.t).toISOString(),
  };
  if (item.promptId !== null) out.promptId = item.promptId;
  if (item.promptVersion) out.promptVersion = item.promptVersion;
  if (item.workspaceId !== null) out.workspaceId = item.workspaceId;
  if (item.parentId !== null) out.parentId = item.parentId;
  if (item.voiceFlags?.length) out.voiceFlags = item.voiceFlags;
  out.review = presentReview(item.review);
  return out;
}

export const presentSummary = (item: SummaryItem): ContentItem =>
  present(item, item.content, item.metadata);

export const presentTurn = (turn: TurnItem): ContentItem => present(turn, turn.full, turn.meta);

export function presentRecord(r: ContentRecord): ContentItem {
  return present(
    {
      id: r._id,
      t: r.createdAt.getTime(),
      title: r.title,
      content: r.content,
      contentType: r.contentType,
      model: r.model,
      language: r.language,
      userId: r.userId,
      workspaceId: r.workspaceId,
      promptId: r.promptId,
      ...(r.promptVersion ? { promptVersion: r.promptVersion } : {}),
      parentId: r.parentId,
      metadata: r.metadata,
      ...(r.voiceFlags?.length ? { voiceFlags: r.voiceFlags } : {}),
      ...(r.review ? { review: r.review } : {}),
    },
    r.content,
    r.metadata,
  );
}

export const presentConversationEntry = (entry: ConversationEntry): ContentItem =>
  'turn' in entry ? presentTurn(entry.turn) : presentRecord(entry.record);
