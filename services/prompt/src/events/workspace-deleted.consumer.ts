import { EVENTS } from '@aict/contracts';
import {
  eventsExchange,
  idempotent,
  type ProcessedStore,
  type Subscription,
} from '@aict/service-kit';
import { deleteWorkspacePrompts } from '../domain/delete-workspace-prompts';
import type { DomainDeps } from '../domain/domain-deps';

/** `workspace.deleted` from the workspace service: its prompts and images go (once per event id). */
export function subscribeWorkspaceDeleted(
  d: DomainDeps,
  processed: ProcessedStore,
): Promise<Subscription> {
  return d.bus.subscribe({
    queue: 'workspace-deleted',
    exchange: eventsExchange('workspace'),
    bindings: ['workspace.deleted'],
    schemas: { 'workspace.deleted': EVENTS['workspace.deleted'] },
    handler: idempotent(processed, (event) => deleteWorkspacePrompts(d, event.data.workspaceId)),
  });
}
