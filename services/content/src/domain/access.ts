import type { TrustedContext } from '@aict/contracts';
import { isAdminIn, roleIn } from '@aict/service-kit';
import { ownerKeyOf, type ContentRecord, type OwnerKey } from '../data/layout';
import { contentNotFound, deleteForbidden } from './content.errors';
import type { DomainDeps } from './domain-deps';

// Who may see and delete which content (SPEC §6, issue 6).
//
// - The workspace "in view" is the one the request names: `workspaceId` in the query, else
//   X-Workspace-ID, else the gateway's `ctx.ws`. Each one named is authorised against the
//   context (404 WORKSPACE.NOT_FOUND when the caller is not a member; the gateway already
//   answers 403 before) by the route's mount, once: the use cases get the one in view.
// - Seen: with a workspace in view, that workspace's contents only; without one, the
//   caller's own contents generated without a workspace. Anything else is 404 (never 403).
// - Delete: the content's owner, admins of its workspace, super admins; others 403.

/** The owner key the lists of this request read. */
export function ownerInView(ctx: TrustedContext, inView: number | null): OwnerKey {
  return ownerKeyOf(inView, ctx.uid ?? '-');
}

export function canSee(ctx: TrustedContext, r: ContentRecord, inView: number | null): boolean {
  if (inView !== null) return r.workspaceId === inView;
  if (r.workspaceId === null) return r.userId === ctx.uid;
  return roleIn(ctx, r.workspaceId) !== null;
}

export function canDelete(ctx: TrustedContext, r: ContentRecord): boolean {
  if (ctx.sa) return true;
  if (r.workspaceId !== null && isAdminIn(ctx, r.workspaceId)) return true;
  return ctx.uid !== null && r.userId === ctx.uid;
}

/** A live content the caller may see, or 404. */
export async function loadVisibleContent(
  d: DomainDeps,
  ctx: TrustedContext,
  id: string,
  inView: number | null,
): Promise<ContentRecord> {
  const record = await d.contents.findById(id);
  if (!record || record.deletedAt || !canSee(ctx, record, inView)) throw contentNotFound();
  return record;
}

export function assertCanDelete(ctx: TrustedContext, r: ContentRecord): void {
  if (!canDelete(ctx, r)) throw deleteForbidden();
}
