import { slugify, type TrustedContext, type UpdateWorkspaceBody } from '@aict/contracts';
import type { WorkspaceRecord } from '../data/workspace.model';
import type { WorkspaceChanges } from '../data/workspace.repository';
import { authorizeSuperAdminOn } from './authorize';
import { claimWorkspaceName, nameKeyOf } from './claim-workspace-name';
import { auditEnvelope } from './audit-act';
import type { DomainDeps } from './domain-deps';
import { withWorkspaceLock } from './locks';
import { workspaceNotFound } from './workspace.errors';
import { workspaceSnapshot } from './workspace-snapshot';

/** Super administrators rename a workspace (slug follows) or change its description. */
export async function updateWorkspace(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  body: UpdateWorkspaceBody,
): Promise<WorkspaceRecord> {
  await authorizeSuperAdminOn(d, ctx, workspaceId);
  return withWorkspaceLock(d, workspaceId, async () => {
    const current = await d.workspaces.findById(workspaceId);
    if (!current) throw workspaceNotFound();
    const changes: Required<WorkspaceChanges> = { set: { updatedAt: new Date() }, unset: [] };
    let newKey: string | undefined;

    if (body.name !== undefined && body.name !== current.name) {
      const key = nameKeyOf(body.name);
      if (key !== current.nameKey) {
        await claimWorkspaceName(d, key, workspaceId);
        newKey = key;
      }
      Object.assign(changes.set, { name: body.name, nameKey: key, slug: slugify(body.name) });
    }
    if (body.description !== undefined) {
      if (body.description) changes.set.description = body.description;
      else changes.unset.push('description');
    }

    const next: WorkspaceRecord = { ...current, ...changes.set };
    if (changes.unset.includes('description')) delete next.description;
    const releaseNewName = async () => {
      if (newKey) await d.workspaces.releaseClaim(newKey, workspaceId).catch(() => undefined);
    };
    let updated: WorkspaceRecord | null;
    try {
      updated = await d.workspaces.update(workspaceId, changes, [
        d.bus.envelope('workspace.updated', workspaceSnapshot(next)),
        auditEnvelope(d, ctx, {
          action: 'workspace.updated',
          workspaceId,
          targetType: 'workspace',
          targetId: String(workspaceId),
          before: { name: current.name, description: current.description ?? null },
          after: { name: next.name, description: next.description ?? null },
        }),
      ]);
    } catch (err) {
      await releaseNewName();
      throw err;
    }
    if (!updated) {
      await releaseNewName();
      throw workspaceNotFound();
    }
    if (newKey) await d.workspaces.releaseClaim(current.nameKey, workspaceId);
    d.outbox.flushLater(d.models.Workspace, workspaceId);
    return updated;
  });
}
