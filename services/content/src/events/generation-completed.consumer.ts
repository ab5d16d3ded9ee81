import { EVENTS } from '@aict/contracts';
import { eventsExchange, type Subscription } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { storeContent } from '../domain/store-content';

/**
 * `generation.completed` from the generation service's outbox (durable queue
 * `content.generation-completed`): the same idempotent store as `content.store`, by content id.
 */
export function subscribeGenerationCompleted(d: DomainDeps): Promise<Subscription> {
  return d.bus.subscribe({
    queue: 'generation-completed',
    exchange: eventsExchange('generation'),
    bindings: ['generation.completed'],
    schemas: { 'generation.completed': EVENTS['generation.completed'] },
    handler: async (event) => {
      await storeContent(d, event.data);
    },
  });
}
