import { EVENTS } from '@aict/contracts';
import {
  eventsExchange,
  idempotent,
  type ProcessedStore,
  type Subscription,
} from '@aict/service-kit';
import { removeContentFiles, removeWorkspaceFiles } from '../domain/cleanup';
import type { DomainDeps } from '../domain/domain-deps';

/** `content.deleted` (content service): the content's generated image goes. */
export function subscribeContentDeleted(
  d: DomainDeps,
  processed: ProcessedStore,
): Promise<Subscription> {
  return d.bus.subscribe({
    queue: 'content-deleted',
    exchange: eventsExchange('content'),
    bindings: ['content.deleted'],
    schemas: { 'content.deleted': EVENTS['content.deleted'] },
    handler: idempotent(processed, (event) => removeContentFiles(d, event.data.contentId)),
  });
}

/** `workspace.deleted` (workspace service): its images and attachments go. */
export function subscribeWorkspaceDeleted(
  d: DomainDeps,
  processed: ProcessedStore,
): Promise<Subscription> {
  return d.bus.subscribe({
    queue: 'workspace-deleted',
    exchange: eventsExchange('workspace'),
    bindings: ['workspace.deleted'],
    schemas: { 'workspace.deleted': EVENTS['workspace.deleted'] },
    handler: idempotent(processed, (event) => removeWorkspaceFiles(d, event.data.workspaceId)),
  });
}
