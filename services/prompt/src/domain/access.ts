import type { TrustedContext } from '@aict/contracts';
import { isAdminIn, roleIn, workspaceInView } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import { defaultPromptIdOf } from './default-prompt';
import type { DomainDeps } from './domain-deps';
import {
  deleteForbidden,
  editForbidden,
  promptNotFound,
  publishedChangeForbidden,
  publishForbidden,
} from './prompt.errors';

// Who may see and change which prompt (SPEC §6, issue 5).
//
// - The workspace "in view" is the one the request names: body or query `workspaceId`,
//   X-Workspace-ID, or the gateway's `ctx.ws`. Every one of them is authorised against the
//   context; a workspace the caller does not belong to is answered 404.
// - Public ("published") means offered in every workspace, and only the super admin publishes
//   (decision of 2026-11-24: nothing crosses a workspace unless the super admin publishes it).
//   A workspace admin asking for isPublic gets 403; a published prompt is changed and deleted
//   by super admins only, since every workspace sees it.
// - Seen: with a workspace in view, its own prompts and the published ones; without one,
//   published prompts and those of the caller's workspaces. Anything else is 404, never 403,
//   so the ids of other tenants' prompts reveal nothing. Until this process has seen the
//   legacy public prompts scoped (scope-public-prompts.ts), no prompt crosses a workspace.
// - Full prompt (template, reference images): admins (super admin, or admin of the prompt's
//   workspace or of the workspace in view). Others get the summary.
// - Edit: admins of the prompt's workspace, and its owner while still a member there.
//   Delete: the same (SPEC: "the prompt's creator or admins"). Default flag: admins only.

/** The workspace in view: one definition for every service (service-kit's). */
export { workspaceInView };

/** Whether the prompt is offered outside its workspace (by this process, now). */
export function isPublished(d: Pick<DomainDeps, 'publicScope'>, prompt: { isPublic: boolean }) {
  return prompt.isPublic && d.publicScope.settled;
}

export function canSee(
  d: Pick<DomainDeps, 'publicScope'>,
  ctx: TrustedContext,
  prompt: PromptRecord,
  inView: number | null,
): boolean {
  if (inView !== null) return prompt.workspaceId === inView || isPublished(d, prompt);
  return isPublished(d, prompt) || roleIn(ctx, prompt.workspaceId) !== null;
}

export function seesFullPrompt(
  ctx: TrustedContext,
  prompt: Pick<PromptRecord, 'workspaceId'>,
  inView: number | null,
): boolean {
  return isAdminIn(ctx, prompt.workspaceId) || (inView !== null && isAdminIn(ctx, inView));
}

export function canEdit(ctx: TrustedContext, prompt: PromptRecord): boolean {
  if (isAdminIn(ctx, prompt.workspaceId)) return true;
  return ctx.uid !== null && prompt.userId === ctx.uid && roleIn(ctx, prompt.workspaceId) !== null;
}

/** A live prompt the caller may see, or null (a missing prompt and a hidden one alike). */
export async function findVisiblePrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
): Promise<PromptRecord | null> {
  const prompt = await d.prompts.findById(promptId);
  return prompt && canSee(d, ctx, prompt, inView) ? prompt : null;
}

/** A live prompt the caller may see, or 404. */
export async function loadVisiblePrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
): Promise<PromptRecord> {
  const prompt = await findVisiblePrompt(d, ctx, promptId, inView);
  if (!prompt) throw promptNotFound();
  return prompt;
}

export function assertCanEdit(ctx: TrustedContext, prompt: PromptRecord): void {
  if (!canEdit(ctx, prompt)) throw editForbidden();
  if (prompt.isPublic && !ctx.sa) throw publishedChangeForbidden();
}

export function assertCanDelete(ctx: TrustedContext, prompt: PromptRecord): void {
  if (!canEdit(ctx, prompt)) throw deleteForbidden();
  if (prompt.isPublic && !ctx.sa) throw publishedChangeForbidden();
}

/** Publishing to every workspace (isPublic: true where it was not): super admins only. */
export function assertCanPublish(ctx: TrustedContext): void {
  if (!ctx.sa) throw publishForbidden();
}

/** Whether the prompt is the default of the workspace in view (its own workspace when none). */
export async function isDefaultInView(
  d: DomainDeps,
  prompt: Pick<PromptRecord, '_id' | 'workspaceId'>,
  inView: number | null,
): Promise<boolean> {
  if (inView !== null && inView !== prompt.workspaceId) return false;
  return (await defaultPromptIdOf(d, prompt.workspaceId)) === prompt._id;
}
