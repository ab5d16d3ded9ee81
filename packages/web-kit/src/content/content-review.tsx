import { useId, useState } from 'react';
import type { ContentItem, ReviewState } from '@aict/contracts';
import { FIELD_LIMITS } from '@aict/contracts/constants';
import { errorMessage } from '../api/http';
import { useKitTranslation } from '../i18n/use-kit-translation';
import { useSession } from '../session/session-provider';
import { useWorkspace } from '../session/workspace-provider';
import { Button } from '../ui/button';
import { Dialog, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../ui/dialog';
import { Badge } from '../ui/feedback';
import { Label, Select, Textarea } from '../ui/input';
import { toast } from '../ui/toast';
import { useReviewContent } from './content-queries';

// Review states of generated content (issue 18): a badge, a filter for the history lists and
// the actions (the author submits; admins of the workspace approve or request changes).

/** Every review state, in the order of the workflow. */
export const REVIEW_STATE_ORDER: readonly ReviewState[] = [
  'draft',
  'in-review',
  'approved',
  'changes-requested',
];

const BADGE_VARIANT = {
  draft: 'outline',
  'in-review': 'secondary',
  approved: 'success',
  'changes-requested': 'destructive',
} as const;

/**
 * The review state of a content (a draft when it has none). While changes are requested, the
 * admin's comment shows as text beside it: a title alone is never seen on touch screens or
 * with the keyboard.
 */
export function ReviewBadge({ review }: { review: ContentItem['review'] }) {
  const { t } = useKitTranslation();
  const state = review?.state ?? 'draft';
  const label = t(`contentReview.state_${state}`);
  const comment =
    state === 'changes-requested' && review?.comment
      ? t('contentReview.commentBy', { comment: review.comment })
      : null;
  return (
    <>
      <Badge variant={BADGE_VARIANT[state]} title={comment ?? label} data-testid="review-state">
        {label}
      </Badge>
      {comment && (
        <span className="wk-review-comment" data-testid="review-comment">
          {comment}
        </span>
      )}
    </>
  );
}

export interface ReviewFilterProps {
  value: ReviewState | undefined;
  onChange: (value: ReviewState | undefined) => void;
  className?: string;
}

/** A select of the review state the history shows (all by default). */
export function ReviewFilter({ value, onChange, className }: ReviewFilterProps) {
  const { t } = useKitTranslation();
  const id = useId();
  return (
    <div className={className}>
      <Label htmlFor={id}>{t('contentReview.filter')}</Label>
      <Select
        id={id}
        value={value ?? ''}
        onChange={(event) =>
          onChange(
            REVIEW_STATE_ORDER.find((s) => s === event.target.value) as ReviewState | undefined,
          )
        }
      >
        <option value="">{t('contentReview.all')}</option>
        {REVIEW_STATE_ORDER.map((state) => (
          <option key={state} value={state}>
            {t(`contentReview.state_${state}`)}
          </option>
        ))}
      </Select>
    </div>
  );
}

/**
 * The review actions the current user may take on a content: its author submits a draft (or
 * a content sent back); an admin of the workspace approves it or requests changes (a comment).
 */
export function ReviewActions({ item }: { item: ContentItem }) {
  const { t } = useKitTranslation();
  const { user } = useSession();
  const { isAdmin } = useWorkspace();
  const review = useReviewContent();
  const [asking, setAsking] = useState(false);
  const [comment, setComment] = useState('');
  const commentId = useId();
  const state = item.review?.state ?? 'draft';
  const mayDecide = isAdmin && state === 'in-review';
  const maySubmit =
    user?.id === item.userId && (state === 'draft' || state === 'changes-requested');
  if (!mayDecide && !maySubmit) return null;

  function run(action: 'submit' | 'approve' | 'request-changes', text?: string) {
    review.mutate(
      { id: item.id, action, ...(text ? { comment: text } : {}) },
      {
        onSuccess: () => {
          setAsking(false);
          setComment('');
          toast({ title: t(`contentReview.done_${action}`), variant: 'success' });
        },
        onError: (error) =>
          toast({
            title: t('contentReview.failed'),
            description: errorMessage(error),
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <span data-testid="review-actions">
      {maySubmit && (
        <Button
          variant="outline"
          size="sm"
          disabled={review.isPending}
          aria-label={t('contentReview.submitName', { title: item.title })}
          onClick={() => run('submit')}
        >
          {t('contentReview.submit')}
        </Button>
      )}
      {mayDecide && (
        <>
          <Button
            variant="outline"
            size="sm"
            disabled={review.isPending}
            aria-label={t('contentReview.approveName', { title: item.title })}
            onClick={() => run('approve')}
          >
            {t('contentReview.approve')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={review.isPending}
            aria-label={t('contentReview.requestChangesName', { title: item.title })}
            onClick={() => setAsking(true)}
          >
            {t('contentReview.requestChanges')}
          </Button>
        </>
      )}
      <Dialog open={asking} onOpenChange={(next) => !next && !review.isPending && setAsking(false)}>
        <DialogHeader>
          <DialogTitle>{t('contentReview.requestChangesTitle')}</DialogTitle>
          <DialogDescription>
            {t('contentReview.requestChangesText', { title: item.title })}
          </DialogDescription>
        </DialogHeader>
        <Label htmlFor={commentId}>{t('contentReview.comment')}</Label>
        <Textarea
          id={commentId}
          value={comment}
          maxLength={FIELD_LIMITS.reviewComment}
          onChange={(event) => setComment(event.target.value)}
        />
        <DialogFooter>
          <Button variant="outline" onClick={() => setAsking(false)} disabled={review.isPending}>
            {t('contentReview.cancel')}
          </Button>
          <Button
            onClick={() => run('request-changes', comment.trim())}
            disabled={review.isPending || comment.trim() === ''}
          >
            {t('contentReview.send')}
          </Button>
        </DialogFooter>
      </Dialog>
    </span>
  );
}

/** The stats' count of contents per review state (nothing until the counts are in). */
export function ReviewStateCounts({ counts }: { counts: Record<ReviewState, number> | undefined }) {
  const { t } = useKitTranslation();
  const id = useId();
  if (!counts) return null;
  return (
    <section aria-labelledby={id} data-testid="review-counts">
      <h2 id={id}>{t('contentReview.statsTitle')}</h2>
      <ul aria-label={t('contentReview.statsText')} className="wk-review-counts">
        {REVIEW_STATE_ORDER.map((state) => (
          <li key={state}>
            <ReviewBadge review={{ state }} /> <span>{counts[state]}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
