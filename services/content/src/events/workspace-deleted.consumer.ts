import { EVENTS } from '@aict/contracts';
import {
  eventsExchange,
  idempotent,
  type ProcessedStore,
  type Subscription,
} from '@aict/service-kit';
import { deleteWorkspaceContents } from '../domain/delete-workspace-contents';
import type { DomainDeps } from '../domain/domain-deps';

/** `workspace.deleted` from the workspace service: its contents go (once per event id). */
export function subscribeWorkspaceDeleted(
  d: DomainDeps,
  processed: ProcessedStore,
): Promise<Subscription> {
  return d.bus.subscribe({
    queue: 'workspace-deleted',
    exchange: eventsExchange('workspace'),
    bindings: ['workspace.deleted'],
    schemas: { 'workspace.deleted': EVENTS['workspace.deleted'] },
    // A large workspace takes a while on FerretDB (the records are found by a scan).
    prefetch: 1,
    handler: idempotent(processed, (event) => deleteWorkspaceContents(d, event.data.workspaceId)),
  });
}
