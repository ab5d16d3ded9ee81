import { randomUUID } from 'node:crypto';
import { CONTENT_STORE_RPC, ContentStoreReply, HISTORY_TITLE_MAX } from '@aict/contracts';
import { toGeneratedContent, type GenerationRecord } from '../data/generation.model';
import type { DomainDeps } from './domain-deps';

/** A new content id (also the generation's id). */
export const newContentId = () => randomUUID();

/** A title from the first line of `text`, at most HISTORY_TITLE_MAX characters. */
export function titleFrom(text: string, fallback: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  const chosen = line || fallback.trim() || 'Untitled';
  return chosen.length > HISTORY_TITLE_MAX
    ? `${chosen.slice(0, HISTORY_TITLE_MAX - 1).trimEnd()}…`
    : chosen;
}

/**
 * The hand-over to the content service (docs/adr/0002): the record and its
 * `generation.completed` event in one insert (at least once, even if the content service or
 * the broker is down), then `content.store` so that the content is readable at once. A slow
 * or absent content service does not fail the generation: the queue delivers later.
 */
export async function saveGeneration(d: DomainDeps, record: GenerationRecord): Promise<void> {
  const content = toGeneratedContent(record);
  const envelope = d.bus.envelope('generation.completed', content);
  await d.generations.insert(record, [envelope]);
  d.relay.flushLater(d.models.Generation, record._id, [envelope]);
  try {
    await d.bus.request(CONTENT_STORE_RPC, content, {
      schema: ContentStoreReply,
      timeoutMs: d.config.CONTENT_STORE_TIMEOUT_MS,
    });
  } catch (err) {
    d.logger.warn(
      { err, contentId: record._id },
      'content.store did not answer; the generation.completed event delivers it',
    );
  }
}
