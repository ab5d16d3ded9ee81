import type { ContentType, TrustedContext } from '@aict/contracts';
import type { SummaryEntry } from '../data/prompt-summary.model';
import { defaultPromptIdOf } from './default-prompt';
import type { DomainDeps } from './domain-deps';
import { publicSummaries, workspaceSummaries } from './prompt-summaries';

/** One prompt of the list: its summary entry, and whether it is the workspace's default. */
export interface PromptListEntry {
  entry: SummaryEntry;
  isDefault: boolean;
}

/**
 * GET /api/prompts: the workspace's prompts and the published ones, newest first, as
 * summaries (the route presents them: the author's id only for those who may know it).
 * The hot path (clients refetch every 15 s): three reads by `_id`, the workspace's summary
 * document, the public one and the default pointer; never a scan of the prompts.
 */
export async function listPrompts(
  d: DomainDeps,
  ctx: TrustedContext,
  query: { workspaceId: number; contentType?: ContentType },
): Promise<PromptListEntry[]> {
  const { workspaceId, contentType } = query;
  const [own, shared, defaultId] = await Promise.all([
    workspaceSummaries(d, workspaceId),
    d.publicScope.settled ? publicSummaries(d) : [],
    defaultPromptIdOf(d, workspaceId),
  ]);
  const byId = new Map(own.map((entry) => [entry.id, entry]));
  for (const entry of shared) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  return [...byId.values()]
    .filter((entry) => !contentType || entry.contentType === contentType)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id))
    .map((entry) => ({
      entry,
      isDefault: entry.workspaceId === workspaceId && defaultId === entry.id,
    }));
}
