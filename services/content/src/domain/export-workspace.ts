import type { TrustedContext } from '@aict/contracts';
import { assertAdmin } from '@aict/service-kit';
import type { GeneratedImage } from '../data/generated-images';
import type { ContentRecord } from '../data/layout';
import type { DomainDeps } from './domain-deps';

/**
 * A workspace's contents for its export (issue 18), read the way the history reads them:
 * page documents by `_id` (oldest page first), then each item's record by `_id`. Only one
 * page of records is in memory at a time, whatever the workspace holds.
 */
export interface WorkspaceExport {
  workspaceId: number;
  /** The contents the workspace's counters hold now (for progress; deletions may lower it). */
  total: number;
  /** The live contents, one history page at a time, oldest first. */
  pages(): AsyncGenerator<ContentRecord[]>;
  /** An image content's bytes, or null when they are gone. */
  openImage(record: ContentRecord): Promise<GeneratedImage | null>;
}

/** GET /api/workspaces/:id/export: admins of the workspace and super administrators. */
export async function startWorkspaceExport(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<WorkspaceExport> {
  assertAdmin(ctx, workspaceId);
  const key = String(workspaceId);
  const [counters, head] = await Promise.all([
    d.counters.findCounts(key),
    d.history.readHead(key, 'all'),
  ]);
  // Pages written after this point hold contents newer than the export.
  const lastPage = head?.lastPage ?? -1;
  return {
    workspaceId,
    total: (counters?.text ?? 0) + (counters?.image ?? 0),
    async *pages() {
      for (let page = 0; page <= lastPage; page++) {
        const doc = await d.history.readPage(key, 'all', page);
        if (!doc?.items.length) continue;
        const records = await Promise.all(doc.items.map((item) => d.contents.findById(item.id)));
        yield records.filter(
          (r): r is ContentRecord => r !== null && !r.deletedAt && r.workspaceId === workspaceId,
        );
      }
    },
    openImage: (record) => d.images.open(record.workspaceId, record._id),
  };
}
