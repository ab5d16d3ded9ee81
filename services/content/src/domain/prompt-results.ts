import {
  PROMPT_FOR_RESULTS_RPC,
  PromptForResultsReply,
  type TrustedContext,
} from '@aict/contracts';
import { hasApplied, withApplied, type ContentRecord } from '../data/layout';
import type { PromptResultsDoc } from '../data/prompt-results.repository';
import { promptResultsId } from '../data/prompt-results.repository';
import type { DomainDeps } from './domain-deps';

// Template results (issue 18): per prompt and workspace, the runs of each version and of each
// user, the approved ones, and what the runs cost: one document read by `_id`
// (data/prompt-results.repository.ts), kept by the same derived writes as the counters
// (derived.ts, under the owner's lock): a stored content adds a run, a review change moves the
// approved count, a delete takes the run out. Each change is remembered in the document in the
// same write, so a redelivered generation, a repeated repair or a replayed review counts once.
//
// Counted: first messages (a template run; replies of its conversation are not) of a workspace
// from a known version of a prompt. Contents stored before versions were recorded carry none.

type Tallied = ContentRecord & { workspaceId: number; promptId: string; promptVersion: number };

/** Whether the content counts in its prompt's results. */
export function isTallied(r: ContentRecord): r is Tallied {
  return r.workspaceId !== null && r.promptId !== null && !!r.promptVersion && r.parentId === null;
}

interface Change {
  runs: number;
  approved: number;
  costMicros: number;
  costed: number;
}

const emptyResults = (r: Tallied): PromptResultsDoc => ({
  _id: promptResultsId(r.workspaceId, r.promptId),
  workspaceId: r.workspaceId,
  promptId: r.promptId,
  versions: [],
  users: [],
  applied: '',
});

const floor0 = (n: number) => Math.max(0, n);

/** Applies one change of a content to its prompt's results, once per `op`. */
async function applyChange(d: DomainDeps, r: Tallied, op: string, change: Change): Promise<void> {
  const doc = (await d.promptResults.find(r.workspaceId, r.promptId)) ?? emptyResults(r);
  if (hasApplied(doc.applied, op)) return;
  const version = doc.versions.find((v) => v.version === r.promptVersion) ?? {
    version: r.promptVersion,
    runs: 0,
    approved: 0,
    costMicros: 0,
    costed: 0,
  };
  const user = doc.users.find((u) => u.userId === r.userId) ?? {
    userId: r.userId,
    runs: 0,
    approved: 0,
  };
  const nextVersion = {
    version: version.version,
    runs: floor0(version.runs + change.runs),
    approved: floor0(version.approved + change.approved),
    costMicros: floor0(version.costMicros + change.costMicros),
    costed: floor0(version.costed + change.costed),
  };
  const nextUser = {
    userId: user.userId,
    runs: floor0(user.runs + change.runs),
    approved: floor0(user.approved + change.approved),
  };
  await d.promptResults.save({
    ...doc,
    versions: [...doc.versions.filter((v) => v.version !== version.version), nextVersion],
    users: [...doc.users.filter((u) => u.userId !== user.userId), nextUser],
    applied: withApplied(doc.applied, op),
  });
}

/** A stored content: one run of its version (and its cost, when it carries one). */
export async function tallyStored(d: DomainDeps, r: ContentRecord): Promise<void> {
  if (!isTallied(r)) return;
  await applyChange(d, r, `+${r._id}`, {
    runs: 1,
    // Approvals are counted by the review changes (a review may come before a repair's store).
    approved: 0,
    costMicros: r.costMicros ?? 0,
    costed: r.costMicros === undefined ? 0 : 1,
  });
}

/** A deleted content: its run (and its approval) taken out; its cost stays (it was spent). */
export async function tallyDeleted(d: DomainDeps, r: ContentRecord): Promise<void> {
  if (!isTallied(r)) return;
  await applyChange(d, r, `-${r._id}`, {
    runs: -1,
    approved: r.review?.state === 'approved' ? -1 : 0,
    costMicros: 0,
    costed: 0,
  });
}

/** A review change `op` from state `from` (none: a draft) to `to`: approvals move. */
export async function tallyReviewed(
  d: DomainDeps,
  r: ContentRecord,
  op: string,
  from: string | undefined,
  to: string,
): Promise<void> {
  const approved = (to === 'approved' ? 1 : 0) - (from === 'approved' ? 1 : 0);
  if (!isTallied(r) || approved === 0) return;
  await applyChange(d, r, op, { runs: 0, approved, costMicros: 0, costed: 0 });
}

/**
 * GET /api/prompts/:id/results: the prompt service decides who may see them (admins of the
 * prompt's workspace and super admins; 404 and 403 come back from it as they are) and names the
 * prompt's workspace and current version; the results are that workspace's document.
 */
export async function getPromptResults(
  d: DomainDeps,
  ctx: TrustedContext,
  promptId: string,
  inView: number | null,
): Promise<{ prompt: PromptForResultsReply; promptId: string; doc: PromptResultsDoc | null }> {
  const prompt = await d.bus.request(
    PROMPT_FOR_RESULTS_RPC,
    { ctx, promptId, workspaceId: inView },
    { timeoutMs: d.config.PROMPT_RESULTS_TIMEOUT_MS, schema: PromptForResultsReply },
  );
  const doc = await d.promptResults.find(prompt.workspaceId, promptId);
  return { prompt, promptId, doc };
}
