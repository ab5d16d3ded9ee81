import {
  USAGE_CURRENCY,
  type PromptForResultsReply,
  type PromptResultsResponse,
  type PromptVersionResults,
} from '@aict/contracts';
import type { PromptResultsDoc, VersionTally } from '../data/prompt-results.repository';

function presentVersion(tally: VersionTally): PromptVersionResults {
  const costMicros = tally.costed > 0 ? tally.costMicros : null;
  return {
    version: tally.version,
    runs: tally.runs,
    approved: tally.approved,
    approvedShare: tally.runs > 0 ? Math.min(1, tally.approved / tally.runs) : 0,
    costMicros,
    costPerApprovedMicros:
      costMicros !== null && tally.approved > 0 ? Math.round(costMicros / tally.approved) : null,
  };
}

/**
 * GET /api/prompts/:id/results: the versions newest first, the current one always listed (with
 * nothing counted yet, it shows zeros); the users with runs, most first.
 */
export function presentPromptResults(view: {
  prompt: PromptForResultsReply;
  promptId: string;
  doc: PromptResultsDoc | null;
}): PromptResultsResponse {
  const { prompt, promptId, doc } = view;
  const versions = [...(doc?.versions ?? [])];
  if (!versions.some((v) => v.version === prompt.version))
    versions.push({ version: prompt.version, runs: 0, approved: 0, costMicros: 0, costed: 0 });
  const users = (doc?.users ?? [])
    .filter((u) => u.runs > 0 || u.approved > 0)
    .sort(
      (a, b) =>
        b.runs - a.runs ||
        b.approved - a.approved ||
        (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0),
    )
    .map((u) => ({ userId: u.userId, runs: u.runs, approved: u.approved }));
  return {
    promptId,
    workspaceId: prompt.workspaceId,
    currentVersion: prompt.version,
    currency: USAGE_CURRENCY,
    versions: versions.sort((a, b) => b.version - a.version).map(presentVersion),
    users,
  };
}
