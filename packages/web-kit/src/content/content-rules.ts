import { GPT_IMAGE_MODEL, HISTORY_PREVIEW_MAX, HISTORY_TITLE_MAX } from '@aict/contracts/constants';
import type { ChatMessage, ContentItem, ContentMetadata } from '@aict/contracts';

// Display rules of the content history (SPEC §2 "Content History panel", §4 "Chat", §9).
// Plain functions over plain values: web-kit stays free of zod (see lib/contracts-subset.ts).

/** SPEC §9: a history title shows at most 60 characters, then '...'. */
export function historyTitle(title: string): string {
  return title.length > HISTORY_TITLE_MAX ? `${title.slice(0, HISTORY_TITLE_MAX)}...` : title;
}

/** The first 80 characters of a text (then '...'), or 'Image generated' for an image. */
export function historyPreview(item: Pick<ContentItem, 'content' | 'contentType'>): string {
  if (item.contentType === 'image') return 'Image generated';
  const text = item.content.trim();
  return text.length > HISTORY_PREVIEW_MAX ? `${text.slice(0, HISTORY_PREVIEW_MAX)}...` : text;
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** '5 minutes ago', '2 hours ago', 'less than a minute ago' (a future date counts as now). */
export function relativeTime(date: string | number | Date, now: Date = new Date()): string {
  const seconds = Math.max(0, (now.getTime() - new Date(date).getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return relativeFormat.format(-Math.floor(seconds / size), unit);
  }
  return 'less than a minute ago';
}

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
