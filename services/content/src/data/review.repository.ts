import type { Connection } from 'mongoose';
import { createChain } from '@aict/service-kit';
import type { ReviewState } from '@aict/contracts';

// The review of each content (issue 18): an append-only chain per content (collection
// `reviews`, chain `<content id>`, versions `<content id>@<n>`). A change is an insert of the
// next version, which fails when another request wrote it first: concurrent changes of one
// content are exact on both engines (packages/service-kit/src/data/chain.ts).

export interface ReviewVersion {
  state: ReviewState;
  comment?: string;
  by: string;
  /** ISO time of the change. */
  at: string;
}

/** Versions kept behind the latest (more than the requests that may race on one content). */
const KEEP = 8;

export function createReviewRepository(conn: Connection) {
  const chain = createChain<ReviewVersion>(conn.collection('reviews') as never, { keep: KEEP });
  return {
    /** The latest review and its version number, or null for a content never reviewed. */
    async latest(contentId: string): Promise<{ n: number; value: ReviewVersion } | null> {
      const link = await chain.latest(contentId);
      return link ? { n: link.n, value: link.value } : null;
    },
    /** Writes version `n`; false when another change wrote it first (a stale change). */
    append: (contentId: string, n: number, value: ReviewVersion) =>
      chain.append(contentId, n, value),
    /** Removes the chain of a deleted content. */
    drop: (contentId: string) => chain.drop(contentId),
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
