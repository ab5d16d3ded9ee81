import { randomUUID } from 'node:crypto';
import { EVENTS } from '@aict/contracts';
import { eventsExchange, type Subscription } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';

/**
 * `settings.changed` (workspace service): the provider configuration kept in memory goes, in
 * this instance; `workspace.deleted`: the prompts kept for generations go too (the workspace's
 * prompts are deleted without an event of their own) (a private queue per instance: every instance must hear it). After a
 * reconnection the queue is new and events may have been missed: clear then too.
 */
export function subscribeSettingsChanged(d: DomainDeps): Promise<Subscription> {
  return d.bus.subscribe({
    queue: `generation.settings-changed.${randomUUID()}`,
    exclusive: true,
    exchange: eventsExchange('workspace'),
    bindings: ['settings.changed', 'workspace.deleted'],
    schemas: {
      'settings.changed': EVENTS['settings.changed'],
      'workspace.deleted': EVENTS['workspace.deleted'],
    },
    handler: async (event) => {
      d.providerConfigs.clear();
      if (event.type === 'workspace.deleted') d.prompts.clear();
    },
    onConsuming: () => {
      d.providerConfigs.clear();
      d.prompts.clear();
    },
  });
}
