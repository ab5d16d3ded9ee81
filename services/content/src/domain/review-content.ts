import type { ReviewContentBody, ReviewState, TrustedContext } from '@aict/contracts';
import { isAdminIn } from '@aict/service-kit';
import { pendingReviewId } from '../data/collections';
import type { ContentRecord } from '../data/layout';
import type { ReviewVersion } from '../data/review.repository';
import { loadVisibleContent } from './access';
import { contentNotFound, reviewConflict, reviewForbidden } from './content.errors';
import { applyReview } from './derived';
import { ownerLock, type DomainDeps } from './domain-deps';

// Review states (issue 18):
//
//   draft ──submit──▶ in-review ──approve──────────▶ approved
//     ▲                  │  ▲
//     (start)            │  └──submit── changes-requested
//                        └──request-changes (comment)──▶ changes-requested
//
// The author submits; an admin of the content's workspace or a super administrator approves
// or requests changes. The state is read from the content's review chain and the change
// written as its next version: of two changes racing on the same state one wins, the other
// answers 409 CONTENT.REVIEW_CONFLICT (as does a change the current state does not allow).

const FROM: Record<ReviewContentBody['action'], { from: ReviewState[]; to: ReviewState }> = {
  submit: { from: ['draft', 'changes-requested'], to: 'in-review' },
  approve: { from: ['in-review'], to: 'approved' },
  'request-changes': { from: ['in-review'], to: 'changes-requested' },
};

export function mayReview(
  ctx: TrustedContext,
  r: ContentRecord,
  action: ReviewContentBody['action'],
): boolean {
  if (action === 'submit') return ctx.uid !== null && r.userId === ctx.uid;
  return ctx.sa || (r.workspaceId !== null && isAdminIn(ctx, r.workspaceId));
}

/** POST /api/contents/:id/review: the content with its new review. */
export async function reviewContent(
  d: DomainDeps,
  ctx: TrustedContext,
  id: string,
  body: ReviewContentBody,
  inView: number | null,
): Promise<ContentRecord> {
  const record = await loadVisibleContent(d, ctx, id, inView);
  if (!mayReview(ctx, record, body.action))
    throw reviewForbidden(body.action === 'submit' ? 'submit' : 'decide');
  const rule = FROM[body.action];
  const latest = await d.reviews.latest(id);
  if (!rule.from.includes(latest?.value.state ?? 'draft')) throw reviewConflict();
  const next: ReviewVersion = {
    state: rule.to,
    by: ctx.uid ?? '-',
    at: new Date().toISOString(),
    ...(body.action === 'request-changes' && body.comment ? { comment: body.comment } : {}),
  };
  const n = (latest?.n ?? 0) + 1;
  // The repair's journal: a crash before the copies are up to date leaves it for the repair.
  const pendingId = pendingReviewId(id, n);
  await d.pending.save({
    _id: pendingId,
    op: 'review',
    key: record.key,
    at: new Date(),
    contentId: id,
  });
  if (!(await d.reviews.append(id, n, next))) {
    await d.pending.remove(pendingId);
    throw reviewConflict();
  }
  // The copies the lists read, under the owner's lock as every derived write.
  const applied = await d.locks.run(ownerLock(record.key), async () => {
    const current = await d.contents.findById(id);
    const done = current && !current.deletedAt ? await applyReview(d, current) : null;
    await d.pending.remove(pendingId);
    return done;
  });
  if (!applied) throw contentNotFound();
  // Another change may already be newer; answer with the one this request wrote.
  return { ...applied, review: { ...next, rev: n } };
}
