import type { DomainDeps } from './domain-deps';
import { publicSummaries, workspaceSummaries } from './prompt-summaries';
import { publicFull, workspaceFull } from './prompt.errors';

// The summary documents stay bounded: a workspace holds at most MAX_PROMPTS_PER_WORKSPACE
// prompts, and there are at most MAX_PUBLIC_PROMPTS public ones. Checked on the summaries
// (reads by `_id`); requests racing at the limit may pass it by a few, which the bound allows.

export async function assertRoomInWorkspace(d: DomainDeps, workspaceId: number): Promise<void> {
  const max = d.config.MAX_PROMPTS_PER_WORKSPACE;
  if ((await workspaceSummaries(d, workspaceId)).length >= max) throw workspaceFull(max);
}

export async function assertRoomForPublic(d: DomainDeps): Promise<void> {
  const max = d.config.MAX_PUBLIC_PROMPTS;
  if ((await publicSummaries(d)).length >= max) throw publicFull(max);
}
