import type { DefaultPrompt, TrustedContext } from '@aict/contracts';
import { outboxInsert } from '@aict/service-kit';
import { linkId } from '@aict/service-kit';
import { defaultChain } from '../data/default-pointer.model';
import { auditEnvelope } from './audit-act';
import type { DomainDeps } from './domain-deps';
import { defaultPromptNotFound } from './prompt.errors';

// The workspace's default prompt is the latest version of its chain `default:<workspaceId>`
// (data/default-pointer.model.ts). A change inserts the next version with its
// prompt.default-changed event; a change that lost the race reads the new latest and decides
// again. So the last change wins and there is exactly one default (or none).

const MAX_ATTEMPTS = 100;

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * (attempt + 1), 50)));

/**
 * Points the workspace's default at `promptId` (null: none), unless it already does; with
 * `onlyIfNow`, only while the default is that prompt. `final` marks the last version of a
 * deleted workspace (the outbox relay removes it once its event is out). `by`: the person
 * whose act changes it (audited in the same insert).
 */
async function pointAt(
  d: DomainDeps,
  workspaceId: number,
  promptId: string | null,
  options: { onlyIfNow?: string; final?: boolean; by?: TrustedContext } = {},
): Promise<void> {
  const chain = defaultChain(workspaceId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const latest = await d.defaults.latest(chain);
    const now = latest?.value.promptId ?? null;
    if (now === promptId && !options.final) return;
    if (options.onlyIfNow !== undefined && now !== options.onlyIfNow) return;
    const sequence = (latest?.n ?? 0) + 1;
    const event = d.bus.envelope('prompt.default-changed', { workspaceId, promptId, sequence });
    const audit = options.by
      ? [
          auditEnvelope(d, options.by, {
            action: 'prompt.default-changed',
            workspaceId,
            targetType: 'workspace',
            targetId: String(workspaceId),
            before: { defaultPromptId: now },
            after: { defaultPromptId: promptId },
          }),
        ]
      : [];
    const extra = outboxInsert(options.final ? { _deletedAt: new Date() } : {}, [event, ...audit]);
    if (await d.defaults.append(chain, sequence, { promptId }, extra)) {
      d.relay.flushLater(d.models.DefaultPointer, linkId(chain, sequence));
      return;
    }
    await pause(attempt);
  }
  throw new Error(`the default prompt of workspace ${workspaceId} is too busy to change`);
}

/** The id of the workspace's default prompt, or null. */
export async function defaultPromptIdOf(
  d: DomainDeps,
  workspaceId: number,
): Promise<string | null> {
  return (await d.defaults.latest(defaultChain(workspaceId)))?.value.promptId ?? null;
}

/** Makes `promptId` the workspace's default (the previous one stops being it); `by` audits it. */
export async function setDefaultPrompt(
  d: DomainDeps,
  workspaceId: number,
  promptId: string,
  by?: TrustedContext,
): Promise<void> {
  await pointAt(d, workspaceId, promptId, { by });
  // Deleted meanwhile? Never leave the default on a prompt that is gone.
  if (!(await d.prompts.findById(promptId))) await clearDefaultPrompt(d, workspaceId, promptId);
}

/** The workspace has no default any more, if `promptId` was it; `by` audits it. */
export async function clearDefaultPrompt(
  d: DomainDeps,
  workspaceId: number,
  promptId: string,
  by?: TrustedContext,
): Promise<void> {
  await pointAt(d, workspaceId, null, { onlyIfNow: promptId, by });
}

/** The workspace is gone: a last prompt.default-changed to null, then its chain goes. */
export async function removeDefaultPointer(d: DomainDeps, workspaceId: number): Promise<void> {
  const latest = await d.defaults.latest(defaultChain(workspaceId));
  if (latest) await pointAt(d, workspaceId, null, { final: true });
  await d.defaults.drop(defaultChain(workspaceId));
}

/** GET /api/prompts/default: the workspace's default prompt `{ id, model }`, or 404. */
export async function getDefaultPrompt(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<DefaultPrompt> {
  const promptId = await defaultPromptIdOf(d, workspaceId);
  if (!promptId) throw defaultPromptNotFound();
  const prompt = await d.prompts.findById(promptId);
  if (!prompt || prompt.workspaceId !== workspaceId) throw defaultPromptNotFound();
  return { id: prompt._id, model: prompt.model };
}
