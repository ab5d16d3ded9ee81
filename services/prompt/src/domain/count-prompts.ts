import type { TrustedContext } from '@aict/contracts';
import type { DomainDeps } from './domain-deps';
import { listPrompts } from './list-prompts';

/**
 * `prompt.count`: how many prompts GET /api/prompts?workspaceId= lists for this caller (the
 * stats page's Total Prompts). The list itself is counted, so the two can never disagree; it
 * reads three documents by `_id`.
 */
export async function countPrompts(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<{ count: number }> {
  return { count: (await listPrompts(d, ctx, { workspaceId })).length };
}
