import { EVENTS } from '@aict/contracts';
import { eventsExchange, idempotent, type Bus, type ProcessedStore } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { applyMembershipChange } from '../domain/apply-membership-change';

/** The workspace service's `membership.changed` → the memberships read model. */
export function consumeMembershipChanged(
  bus: Bus,
  processed: ProcessedStore,
  deps: Pick<AuthDeps, 'memberships' | 'locks'>,
) {
  return bus.subscribe({
    queue: 'membership-changed',
    exchange: eventsExchange('workspace'),
    bindings: ['membership.changed'],
    schemas: { 'membership.changed': EVENTS['membership.changed'] },
    handler: idempotent(processed, (event) => applyMembershipChange(deps, event)),
  });
}
