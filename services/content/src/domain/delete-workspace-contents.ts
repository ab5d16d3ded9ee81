import { SCOPES } from '../data/layout';
import { emptyCounters } from './derived';
import { ownerLock, type DomainDeps } from './domain-deps';
import { indexLock } from './search-index';

/** Pages deleted at once (each by `_id`). */
const PARALLEL = 16;

/**
 * `workspace.deleted`: the workspace's contents and every derived document (its prompts'
 * results too) go; its counters
 * document stays as a marker (`closed`), so that a generation finishing late stores nothing.
 * Idempotent (each step deletes what is still there; heads go last, so a repeat finds the
 * pages). No `content.deleted` per content: the workspace's own event says it all.
 */
export async function deleteWorkspaceContents(d: DomainDeps, workspaceId: number): Promise<void> {
  const key = String(workspaceId);
  await d.locks.run(ownerLock(key), async () => {
    await d.counters.save({ ...emptyCounters(key), closed: true });
    await d.pending.removeOf(key);
    await d.contents.deleteOfWorkspace(workspaceId);
    await d.contents.deleteThreadsOf(key);
    await d.promptResults.deleteOfWorkspace(workspaceId);
    for (const scope of SCOPES) {
      const head = await d.history.readHead(key, scope);
      if (!head) continue;
      for (let p = 0; p <= head.lastPage; p += PARALLEL) {
        const pages: number[] = [];
        for (let n = p; n < Math.min(p + PARALLEL, head.lastPage + 1); n++) pages.push(n);
        await Promise.all(pages.map((n) => d.history.deletePage(key, scope, n)));
      }
      await d.history.deleteHead(key, scope);
    }
    // After the heads: an upkeep that runs later finds no head and writes nothing.
    d.indexer.forget(key);
    await d.locks.run(indexLock(key), () => d.index.drop(key));
    d.searchCache.dropPrefix(`${key}:`);
  });
}
