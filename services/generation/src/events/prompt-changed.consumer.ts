import { randomUUID } from 'node:crypto';
import { EVENTS } from '@aict/contracts';
import { eventsExchange, type Subscription } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';

/**
 * The prompt service's prompt events: the prompts kept for generations go, in this instance
 * (a private queue per instance: every instance must hear it). After a reconnection the queue
 * is new and events may have been missed: clear then too. `PROMPT_CACHE_TTL_MS` bounds what
 * a missed event can leave.
 */
export function subscribePromptChanged(d: DomainDeps): Promise<Subscription> {
  return d.bus.subscribe({
    queue: `generation.prompt-changed.${randomUUID()}`,
    exclusive: true,
    exchange: eventsExchange('prompt'),
    bindings: ['prompt.created', 'prompt.updated', 'prompt.deleted'],
    schemas: {
      'prompt.created': EVENTS['prompt.created'],
      'prompt.updated': EVENTS['prompt.updated'],
      'prompt.deleted': EVENTS['prompt.deleted'],
    },
    handler: async () => d.prompts.clear(),
    onConsuming: () => d.prompts.clear(),
  });
}
