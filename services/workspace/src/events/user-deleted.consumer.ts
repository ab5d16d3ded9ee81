import { EVENTS } from '@aict/contracts';
import {
  eventsExchange,
  idempotent,
  type ProcessedStore,
  type Subscription,
} from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { removeUserMemberships } from '../domain/remove-user-memberships';

/** `user.deleted` from the auth service: the user's memberships go (once per event id). */
export function subscribeUserDeleted(
  d: DomainDeps,
  processed: ProcessedStore,
): Promise<Subscription> {
  return d.bus.subscribe({
    queue: 'user-deleted',
    exchange: eventsExchange('auth'),
    bindings: ['user.deleted'],
    schemas: { 'user.deleted': EVENTS['user.deleted'] },
    handler: idempotent(processed, (event) => removeUserMemberships(d, event.data.userId)),
  });
}
