import type { TrustedContext } from '@aict/contracts';
import { assertMember, isAdminIn, roleIn } from '@aict/service-kit';
import type { PromptRecord } from '../data/prompt.model';
import { defaultPromptIdOf } from './default-prompt';
import type { DomainDeps } from './domain-deps';
import { deleteForbidden, editForbidden, promptNotFound } from './prompt.errors';

// Who may see and change which prompt (SPEC §6, issue 5).
//
// - The workspace "in view" is the one the request names: body or query `workspaceId`,
//   X-Workspace-ID, or the gateway's `ctx.ws`. Every one of them is authorised against the
//   context; a workspace the caller does not belong to is answered 404.
// - Seen: with a workspace in view, its own prompts and the public ones; without one, public
//   prompts and those of the caller's workspaces. Anything else is 404, never 403, so the ids
//   of other tenants' prompts reveal nothing.
// - Full prompt (template, reference images): admins (super admin, or admin of the prompt's
//   workspace or of the workspace in view). Others get the summary.
// - Edit: admins of the prompt's workspace, and its owner while still a member there.
//   Delete: the same (SPEC: "the prompt's creator or admins"). Default flag: admins only.

/** The workspace in view, after authorising every workspace id the request names (404 otherwise). */
export function workspaceInView(
  ctx: TrustedContext,
  named: ReadonlyArray<number | null | undefined>,
): number | null {
  const ids = named.filter((id): id is number => typeof id === 'number');
  for (const id of new Set([...ids, ...(ctx.ws === null ? [] : [ctx.ws])])) assertMember(ctx, id);
  return ids[0] ?? ctx.ws;
}

export function canSee(ctx: TrustedContext, prompt: PromptRecord, inView: number | null): boolean {
  if (inView !== null) return prompt.workspaceId === inView || prompt.isPublic;
  return prompt.isPublic || roleIn(ctx, prompt.workspaceId) !== null;
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
  return prompt && canSee(ctx, prompt, inView) ? prompt : null;
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
}

export function assertCanDelete(ctx: TrustedContext, prompt: PromptRecord): void {
  if (!canEdit(ctx, prompt)) throw deleteForbidden();
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
