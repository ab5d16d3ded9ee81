import { EVENTS } from '@aict/contracts';
import type { Subscription } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { syncPromptSummaries } from '../domain/prompt-summaries';

/**
 * This service's own prompt events, as the repair of the summary documents. The outbox
 * publishes a prompt's event even when the process stopped between writing the prompt and
 * syncing its summaries; the sync reads the prompt as stored now, so duplicates and
 * reordering are harmless.
 */
export function subscribeOwnEvents(d: DomainDeps): Promise<Subscription> {
  return d.bus.subscribe({
    queue: 'summaries',
    exchange: d.bus.exchange,
    bindings: ['prompt.created', 'prompt.updated', 'prompt.deleted'],
    schemas: {
      'prompt.created': EVENTS['prompt.created'],
      'prompt.updated': EVENTS['prompt.updated'],
      'prompt.deleted': EVENTS['prompt.deleted'],
    },
    handler: (event) =>
      syncPromptSummaries(d, event.data.promptId, event.data.workspaceId ?? undefined),
  });
}
