import { randomUUID } from 'node:crypto';
import { EVENTS } from '@aict/contracts';
import { eventsExchange, type Subscription } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';

/**
 * `settings.changed` (workspace service): the provider configuration kept in memory goes, in
 * this instance (a private queue per instance: every instance must hear it). After a
 * reconnection the queue is new and events may have been missed: clear then too.
 */
export function subscribeSettingsChanged(d: DomainDeps): Promise<Subscription> {
  return d.bus.subscribe({
    queue: `generation.settings-changed.${randomUUID()}`,
    exclusive: true,
    exchange: eventsExchange('workspace'),
    bindings: ['settings.changed'],
    schemas: { 'settings.changed': EVENTS['settings.changed'] },
    handler: async () => d.providerConfigs.clear(),
    onConsuming: () => d.providerConfigs.clear(),
  });
}
