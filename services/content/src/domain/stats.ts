import {
  PROMPT_COUNT_RPC,
  PromptCountReply,
  type StatsResponse,
  type TrustedContext,
} from '@aict/contracts';
import type { DomainDeps } from './domain-deps';

/**
 * GET /api/stats: the stats page's three counts. Text and image counts come from the
 * workspace's counters document (by `_id`); the prompt count from the prompt service
 * (request/reply `prompt.count`, with the caller's context), asked at the same time.
 * `workspaceId`: a workspace of the caller's, already authorised.
 */
export async function getStats(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<StatsResponse> {
  const [counters, prompts] = await Promise.all([
    d.counters.findCounts(String(workspaceId)),
    d.bus.request(
      PROMPT_COUNT_RPC,
      { ctx, workspaceId },
      { timeoutMs: d.config.PROMPT_COUNT_TIMEOUT_MS, schema: PromptCountReply },
    ),
  ]);
  const text = counters?.text ?? 0;
  const image = counters?.image ?? 0;
  const reviewed = counters?.reviews ?? {};
  const inReview = reviewed['in-review'] ?? 0;
  const approved = reviewed.approved ?? 0;
  const changes = reviewed['changes-requested'] ?? 0;
  return {
    totalPrompts: prompts.count,
    textContent: text,
    imagesGenerated: image,
    reviews: {
      draft: Math.max(0, text + image - inReview - approved - changes),
      'in-review': inReview,
      approved,
      'changes-requested': changes,
    },
  };
}
