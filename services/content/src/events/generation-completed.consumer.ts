import { EVENTS } from '@aict/contracts';
import { eventsExchange, type Subscription } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { storeContent } from '../domain/store-content';

/**
 * Messages of the queue handled at once. Small, so that a backlog (e.g. after a RabbitMQ
 * restart: hundreds of events at once) is worked through a few at a time and HTTP requests
 * keep their share of the process and the database (stores of one owner run one at a time
 * anyway, under its lock).
 */
export const GENERATION_COMPLETED_PREFETCH = 4;

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
    prefetch: GENERATION_COMPLETED_PREFETCH,
    handler: async (event) => {
      await storeContent(d, event.data);
      // Between two messages of a backlog, let waiting requests run first.
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  });
}
