import { EVENTS } from '@aict/contracts';
import type { Subscription } from '@aict/service-kit';
import { purgeWorkspace } from '../domain/delete-workspace';
import type { DomainDeps } from '../domain/domain-deps';
import { syncUserIndex } from '../domain/sync-user-index';

/**
 * This service's own events, as the repair of its derived documents. The outbox publishes an
 * event even when the process stopped right after writing it; so whatever a request did not
 * finish after its first write is finished here:
 *   membership.changed → the per-user index agrees with the membership again;
 *   workspace.deleted  → the workspace's memberships, settings, logo and name go.
 * Both handlers read the current state, so duplicates and reordering are harmless.
 */
export function subscribeOwnEvents(d: DomainDeps): Promise<Subscription> {
  return d.bus.subscribe({
    queue: 'repair',
    exchange: d.bus.exchange,
    bindings: ['membership.changed', 'workspace.deleted'],
    schemas: {
      'membership.changed': EVENTS['membership.changed'],
      'workspace.deleted': EVENTS['workspace.deleted'],
    },
    handler: async (event) => {
      if (event.type === 'membership.changed') {
        await syncUserIndex(d, event.data.workspaceId, event.data.userId);
      } else {
        await purgeWorkspace(d, event.data.workspaceId);
      }
    },
  });
}
