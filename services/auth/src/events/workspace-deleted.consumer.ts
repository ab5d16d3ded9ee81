import { EVENTS } from '@aict/contracts';
import { eventsExchange, idempotent, type Bus, type ProcessedStore } from '@aict/service-kit';
import type { AuthDeps } from '../domain/auth-deps';
import { applyWorkspaceDeleted } from '../domain/apply-membership-change';

/** The workspace service's `workspace.deleted` → its memberships leave the read model. */
export function consumeWorkspaceDeleted(
  bus: Bus,
  processed: ProcessedStore,
  deps: Pick<AuthDeps, 'memberships' | 'locks'>,
) {
  return bus.subscribe({
    queue: 'workspace-deleted',
    exchange: eventsExchange('workspace'),
    bindings: ['workspace.deleted'],
    schemas: { 'workspace.deleted': EVENTS['workspace.deleted'] },
    handler: idempotent(processed, (event) => applyWorkspaceDeleted(deps, event)),
  });
}
