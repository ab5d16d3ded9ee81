import { DEFAULT_WORKSPACE_ID, slugify } from '@aict/contracts';
import type { WorkspaceRecord } from '../data/workspace.model';
import { nameKeyOf } from './claim-workspace-name';
import type { DomainDeps } from './domain-deps';
import { workspaceSnapshot } from './workspace-snapshot';

export const DEFAULT_WORKSPACE_NAME = 'Default';

/**
 * Workspace 1 ('Default', slug 'default') exists from the first start. Idempotent and safe
 * when several instances start at once; a renamed workspace 1 keeps its name.
 */
export async function ensureDefaultWorkspace(d: DomainDeps): Promise<void> {
  await d.workspaces.reserveId(DEFAULT_WORKSPACE_ID);
  if (await d.workspaces.findById(DEFAULT_WORKSPACE_ID)) return;

  const now = new Date();
  const record: WorkspaceRecord = {
    _id: DEFAULT_WORKSPACE_ID,
    name: DEFAULT_WORKSPACE_NAME,
    nameKey: nameKeyOf(DEFAULT_WORKSPACE_NAME),
    slug: slugify(DEFAULT_WORKSPACE_NAME),
    createdAt: now,
    updatedAt: now,
  };
  await d.workspaces.claimName(record.nameKey, DEFAULT_WORKSPACE_ID);
  const inserted = await d.workspaces.insertIfMissing(record, [
    d.bus.envelope('workspace.created', workspaceSnapshot(record)),
  ]);
  if (inserted) {
    d.logger.info({ workspaceId: DEFAULT_WORKSPACE_ID }, 'default workspace created');
    d.outbox.flushLater(d.models.Workspace, DEFAULT_WORKSPACE_ID);
  }
}
