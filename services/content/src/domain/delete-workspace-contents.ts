import { headId, pageId, SCOPES } from '../data/layout';
import { emptyCounters } from './derived';
import { ownerLock, type DomainDeps } from './domain-deps';

/** Pages deleted at once (each by `_id`). */
const PARALLEL = 16;

/**
 * `workspace.deleted`: the workspace's contents and every derived document go; its counters
 * document stays as a marker (`closed`), so that a generation finishing late stores nothing.
 * Idempotent (each step deletes what is still there; heads go last, so a repeat finds the
 * pages). No `content.deleted` per content: the workspace's own event says it all.
 */
export async function deleteWorkspaceContents(d: DomainDeps, workspaceId: number): Promise<void> {
  const key = String(workspaceId);
  await d.locks.run(ownerLock(key), async () => {
    await d.c.counters.replaceOne(
      { _id: key },
      { ...emptyCounters(key), closed: true },
      { upsert: true },
    );
    await d.c.pending.deleteMany({ key });
    await d.c.contents.deleteMany({ workspaceId });
    await d.c.threads.deleteMany({ key });
    for (const scope of SCOPES) {
      const head = await d.history.readHead(key, scope);
      if (!head) continue;
      const pages = d.history.pagesOf(scope);
      for (let p = 0; p <= head.lastPage; p += PARALLEL) {
        const ids: string[] = [];
        for (let n = p; n < Math.min(p + PARALLEL, head.lastPage + 1); n++)
          ids.push(pageId(key, scope, n));
        await Promise.all(ids.map((id) => pages.deleteOne({ _id: id })));
      }
      await d.c.heads.deleteOne({ _id: headId(key, scope) });
    }
    d.searchCache.dropPrefix(`${key}:`);
  });
}
