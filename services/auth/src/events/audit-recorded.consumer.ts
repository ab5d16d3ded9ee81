import { EVENTS } from '@aict/contracts';
import { eventsExchange, type Bus } from '@aict/service-kit';
import type { AuditRepository } from '../data/audit.repository';
import { appendAuditEvent } from '../domain/audit-log';

/**
 * `audit.recorded` → one entry in the audit log. Appending is idempotent by the event id
 * itself (see appendAuditEvent), so a redelivery adds nothing.
 */
export function consumeAuditRecorded(bus: Bus, audit: AuditRepository) {
  return bus.subscribe({
    queue: 'audit-recorded',
    exchange: eventsExchange('auth'),
    bindings: [
      'audit.recorded',
      // Each service that owns administrative acts publishes their `audit.recorded` from
      // its own outbox: workspaces, members, keys and default models; prompts and the
      // default prompt; budgets, caps, rate limits and prices.
      ...(['workspace', 'prompt', 'generation'] as const).map((service) => ({
        exchange: eventsExchange(service),
        routingKey: 'audit.recorded',
      })),
    ],
    schemas: { 'audit.recorded': EVENTS['audit.recorded'] },
    handler: async (event) => {
      await appendAuditEvent(audit, event);
    },
  });
}
