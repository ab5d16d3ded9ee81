import { GPT_IMAGE_MODEL, HISTORY_PREVIEW_MAX, HISTORY_TITLE_MAX } from '@aict/contracts/constants';
import type { ChatMessage, ContentItem, ContentMetadata } from '@aict/contracts';
import { i18n } from '../i18n/i18n';

// Display rules of the content history (SPEC §2 "Content History panel", §4 "Chat", §9).
// Plain functions over plain values: web-kit stays free of zod (see lib/contracts-subset.ts).

/** SPEC §9: a history title shows at most 60 characters, then '...'. */
export function historyTitle(title: string): string {
  return title.length > HISTORY_TITLE_MAX ? `${title.slice(0, HISTORY_TITLE_MAX)}...` : title;
}

/** The first 80 characters of a text (then '...'), or 'Image generated' (translated) for an image. */
export function historyPreview(item: Pick<ContentItem, 'content' | 'contentType'>): string {
  if (item.contentType === 'image') return i18n.t('common.imageGenerated');
  const text = item.content.trim();
  return text.length > HISTORY_PREVIEW_MAX ? `${text.slice(0, HISTORY_PREVIEW_MAX)}...` : text;
}

// '5 minutes ago' in the chosen language (i18n/relative-time.ts).
export { relativeTime } from '../i18n/relative-time';

/** SPEC §2: a history image downloads as its title in lower case, spaces as hyphens, .jpg. */
export function imageDownloadName(title: string): string {
  const base = title.trim().toLowerCase().replace(/\s+/g, '-');
  return `${base || 'image'}.jpg`;
}

/** SPEC §9: a freshly generated image downloads under a timestamp, .png for gpt-image-1. */
export function generatedImageFileName(model: string, now: Date = new Date()): string {
  const extension = model === GPT_IMAGE_MODEL ? 'png' : 'jpg';
  return `generated-image-${now.getTime()}.${extension}`;
}

/** Content metadata as an object: it may arrive as a JSON string (SPEC §3); junk gives {}. */
export function parseMetadata(metadata: unknown): ContentMetadata {
  let value = metadata;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as ContentMetadata)
    : {};
}

type ThreadItem = Pick<ContentItem, 'content'> & { metadata?: unknown };

/**
 * SPEC §4: a thread's messages from its items, oldest first. The first item's user message is
 * metadata.inputs.message, a later item's metadata.originalMessage (skipped when absent); each
 * item's content is the assistant's answer.
 */
export function rebuildConversation(items: readonly ThreadItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  items.forEach((item, index) => {
    const metadata = parseMetadata(item.metadata);
    const asked = index === 0 ? metadata.inputs?.message : metadata.originalMessage;
    if (typeof asked === 'string' && asked !== '') messages.push({ role: 'user', content: asked });
    messages.push({ role: 'assistant', content: item.content });
  });
  return messages;
}

/** One conversation in a history list: its latest turn and how many turns were loaded. */
/** The number of turns of a conversation row: '1 turn', '3 turns' (in the chosen language). */
export function turnsLabel(turns: number): string {
  return i18n.t('history.turns', { count: turns });
}

export interface ConversationRow<T> {
  /** The newest loaded turn (what the row shows and opens). */
  latest: T;
  /** The number of loaded turns of this conversation (at least 1). */
  turns: number;
  /** The ids of those turns (e.g. to highlight the row of the conversation in view). */
  ids: string[];
}

/**
 * Groups a newest-first list of contents into one row per conversation. The list API has no
 * thread id, so a turn joins its parent's row through `parentId`, as far as the loaded
 * items reach (a turn whose parent is on a page not loaded yet keys on that parent id, so
 * its later turns still group together). Rows keep the order of their latest turn.
 */
export function groupConversations<T extends Pick<ContentItem, 'id' | 'parentId'>>(
  items: readonly T[],
): ConversationRow<T>[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const rootOf = (item: T): string => {
    let key = item.id;
    let parentId = item.parentId;
    const seen = new Set<string>([key]);
    while (parentId && !seen.has(parentId)) {
      key = parentId;
      seen.add(parentId);
      parentId = byId.get(parentId)?.parentId;
    }
    return key;
  };
  const rows = new Map<string, ConversationRow<T>>();
  for (const item of items) {
    const root = rootOf(item);
    const row = rows.get(root);
    if (row) {
      row.turns += 1;
      row.ids.push(item.id);
    } else {
      rows.set(root, { latest: item, turns: 1, ids: [item.id] });
    }
  }
  return [...rows.values()];
}
