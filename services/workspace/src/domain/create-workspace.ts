import { slugify, type CreateWorkspaceBody, type TrustedContext } from '@aict/contracts';
import { assertSuperAdmin } from '@aict/service-kit';
import type { WorkspaceRecord } from '../data/workspace.model';
import { claimWorkspaceName, nameKeyOf } from './claim-workspace-name';
import { auditEnvelope } from './audit-act';
import type { DomainDeps } from './domain-deps';
import { workspaceSnapshot } from './workspace-snapshot';

/** Super administrators create workspaces: unique name, slug from the name, a new integer id. */
export async function createWorkspace(
  d: DomainDeps,
  ctx: TrustedContext,
  body: CreateWorkspaceBody,
): Promise<WorkspaceRecord> {
  assertSuperAdmin(ctx);
  const id = await d.workspaces.nextId();
  const nameKey = nameKeyOf(body.name);
  await claimWorkspaceName(d, nameKey, id);

  const now = new Date();
  const record: WorkspaceRecord = {
    _id: id,
    name: body.name,
    nameKey,
    slug: slugify(body.name),
    createdAt: now,
    updatedAt: now,
  };
  if (body.description) record.description = body.description;
  try {
    await d.workspaces.insert(record, [
      d.bus.envelope('workspace.created', workspaceSnapshot(record)),
      auditEnvelope(d, ctx, {
        action: 'workspace.created',
        workspaceId: id,
        targetType: 'workspace',
        targetId: String(id),
        after: { name: record.name, description: record.description ?? null },
      }),
    ]);
  } catch (err) {
    await d.workspaces.releaseClaim(nameKey, id).catch(() => undefined);
    throw err;
  }
  d.outbox.flushLater(d.models.Workspace, id);
  return record;
}
