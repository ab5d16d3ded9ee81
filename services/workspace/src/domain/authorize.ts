import type { TrustedContext } from '@aict/contracts';
import { assertAdmin, assertMember, assertSuperAdmin } from '@aict/service-kit';
import type { WorkspaceRecord } from '../data/workspace.model';
import type { DomainDeps } from './domain-deps';
import { workspaceNotFound } from './workspace.errors';

/**
 * A workspace id in a request is authorised against the caller's context before anything
 * is read: another tenant's workspace is 404 (as if it did not exist), a member without the
 * needed role 403, and a workspace that is gone 404.
 */
async function load(d: DomainDeps, workspaceId: number): Promise<WorkspaceRecord> {
  const workspace = await d.workspaces.findById(workspaceId);
  if (!workspace) throw workspaceNotFound();
  return workspace;
}

/** Any member (super administrators included). */
export async function authorizeMember(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<WorkspaceRecord> {
  assertMember(ctx, workspaceId);
  return load(d, workspaceId);
}

/** An admin of the workspace, or a super administrator. */
export async function authorizeAdmin(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<WorkspaceRecord> {
  assertAdmin(ctx, workspaceId);
  return load(d, workspaceId);
}

/** A super administrator (a member who is not one gets 403, anyone else 404). */
export async function authorizeSuperAdminOn(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<WorkspaceRecord> {
  assertMember(ctx, workspaceId);
  assertSuperAdmin(ctx);
  return load(d, workspaceId);
}
