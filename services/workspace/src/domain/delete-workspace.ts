import { DEFAULT_WORKSPACE_ID, type TrustedContext } from '@aict/contracts';
import type { Envelope } from '@aict/service-kit';
import { authorizeSuperAdminOn } from './authorize';
import { auditEnvelope } from './audit-act';
import type { DomainDeps } from './domain-deps';
import { withWorkspaceLock } from './locks';
import { defaultWorkspaceNotDeletable, workspaceNotFound } from './workspace.errors';

export const logoPrefixOf = (workspaceId: number) => `workspaces/${workspaceId}/`;

/**
 * Super administrators delete a workspace (never workspace 1). The workspace and its
 * `workspace.deleted` event are written first; its memberships, settings, logo and name go
 * next (purgeWorkspace), and again from that event should this process stop half-way.
 * Returns the identity events for the gateway.
 */
export async function deleteWorkspace(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<Envelope[]> {
  await authorizeSuperAdminOn(d, ctx, workspaceId);
  if (workspaceId === DEFAULT_WORKSPACE_ID) throw defaultWorkspaceNotDeletable();
  const event = d.bus.envelope('workspace.deleted', { workspaceId });
  const audit = auditEnvelope(d, ctx, {
    action: 'workspace.deleted',
    workspaceId,
    targetType: 'workspace',
    targetId: String(workspaceId),
  });
  const deleted = await withWorkspaceLock(d, workspaceId, () =>
    d.workspaces.markDeleted(workspaceId, [event, audit]),
  );
  if (!deleted) throw workspaceNotFound();
  d.outbox.flushLater(d.models.Workspace, workspaceId);
  await purgeWorkspace(d, workspaceId);
  return [event];
}

/**
 * Removes what belonged to a deleted workspace: its memberships (and their entries in the
 * per-user index), its settings, its logo objects and its name claim. Idempotent; does
 * nothing while the workspace still exists (an event from elsewhere cannot empty a live one).
 */
export async function purgeWorkspace(d: DomainDeps, workspaceId: number): Promise<void> {
  if (await d.workspaces.findById(workspaceId)) {
    d.logger.warn({ workspaceId }, 'purge skipped: the workspace exists');
    return;
  }
  const members = await d.memberships.listByWorkspace(workspaceId);
  for (const member of members) await d.memberships.removeFromIndex(member.userId, workspaceId);
  await d.memberships.deleteByWorkspace(workspaceId);
  await d.settings.deleteByWorkspace(workspaceId);
  await d.storage.removePrefix(logoPrefixOf(workspaceId));
  await d.workspaces.releaseClaimsOf(workspaceId);
}
