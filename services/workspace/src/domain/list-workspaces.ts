import type { TrustedContext } from '@aict/contracts';
import { assertSuperAdmin } from '@aict/service-kit';
import type { WorkspaceRecord } from '../data/workspace.model';
import type { DomainDeps } from './domain-deps';

/** Every workspace (super administrators). */
export async function listAllWorkspaces(
  d: DomainDeps,
  ctx: TrustedContext,
): Promise<WorkspaceRecord[]> {
  assertSuperAdmin(ctx);
  return d.workspaces.listAll();
}

/**
 * The caller's workspaces: one read of the per-user index, then each workspace by `_id`.
 * Super administrators get every workspace.
 */
export async function listMyWorkspaces(
  d: DomainDeps,
  ctx: TrustedContext,
): Promise<WorkspaceRecord[]> {
  if (ctx.sa) return d.workspaces.listAll();
  const index = await d.memberships.readIndex(ctx.uid!);
  const ids = Object.entries(index?.ws ?? {})
    .filter(([, entry]) => entry.role !== null)
    .map(([id]) => Number(id))
    .sort((a, b) => a - b);
  return d.workspaces.findByIds(ids);
}
