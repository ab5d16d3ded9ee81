import { IDENTITY_SNAPSHOT_RPC, IdentitySnapshot } from '@aict/contracts';
import type { PromptRecord } from '../data/prompt.model';
import { defaultPromptIdOf } from './default-prompt';
import type { DomainDeps } from './domain-deps';
import { promptSnapshot } from './prompt-snapshot';
import { rebuildPublicIndex, syncPromptSummaries } from './prompt-summaries';

// A one-off migration (hardening issue, item 3; decision of 2026-11-24): until then a
// workspace admin could mark a prompt public, which listed it, template and all, in every
// workspace. Publishing beyond a workspace is now the super admin's act alone, so public
// prompts whose author is not a super administrator become workspace-scoped.
//
// It runs at start-up. A marker document, read by `_id`, says it is done; until this process
// has seen it, public prompts are not shown outside their own workspace (the gate in
// `publicScope`), so nothing of unknown origin crosses while the migration waits for the auth
// service. Without public prompts there is nothing to ask auth about. Re-running it changes
// nothing (each prompt is updated only while still public, compare-and-set on `rev`).

export const PUBLIC_SCOPE_MIGRATION = 'public-prompts-scoped-2026-11-24';
const MIGRATIONS = 'prompt_migrations';
const MAX_ATTEMPTS = 5;

/** Whether this process may show public prompts outside their workspace. */
export interface PublicScope {
  settled: boolean;
}

interface MigrationMarker {
  _id: string;
  at: Date;
  scoped: string[];
}

const markers = (d: DomainDeps) => d.models.Prompt.db.collection<MigrationMarker>(MIGRATIONS);

/** The ids of the super administrators, as the auth service knows them. */
export type SuperAdminIds = () => Promise<ReadonlySet<string>>;

export const superAdminsFromAuth =
  (d: DomainDeps, timeoutMs = 5_000): SuperAdminIds =>
  async () => {
    const snapshot = await d.bus.request(
      IDENTITY_SNAPSHOT_RPC,
      {},
      {
        schema: IdentitySnapshot,
        timeoutMs,
      },
    );
    return new Set(snapshot.users.filter((user) => user.isSuperAdmin).map((user) => user.id));
  };

/**
 * Makes the public prompts of authors who are not super administrators workspace-scoped,
 * once; then opens the gate. Returns the ids it scoped (empty when already done).
 */
export async function scopeLegacyPublicPrompts(
  d: DomainDeps,
  superAdmins: SuperAdminIds = superAdminsFromAuth(d),
): Promise<string[]> {
  if (await markers(d).findOne({ _id: PUBLIC_SCOPE_MIGRATION })) {
    d.publicScope.settled = true;
    return [];
  }
  const published = await d.prompts.listPublic(); // a scan, once per database
  const scoped: string[] = [];
  if (published.length > 0) {
    const admins = await superAdmins();
    for (const prompt of published) {
      if (admins.has(prompt.userId)) continue;
      if (await unpublish(d, prompt._id)) scoped.push(prompt._id);
    }
    await rebuildPublicIndex(d);
  }
  try {
    await markers(d).insertOne({ _id: PUBLIC_SCOPE_MIGRATION, at: new Date(), scoped });
  } catch (err) {
    // Another instance finished it at the same time: done all the same.
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  d.publicScope.settled = true;
  if (scoped.length > 0)
    d.logger.info({ scoped }, 'public prompts of workspace admins made workspace-scoped');
  return scoped;
}

/** Sets `isPublic: false` with its `prompt.updated`, while the prompt is still public. */
async function unpublish(d: DomainDeps, promptId: string): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await d.prompts.findById(promptId);
    if (!current?.isPublic) return false;
    const next: PromptRecord = { ...current, isPublic: false, updatedAt: new Date() };
    const isDefault = (await defaultPromptIdOf(d, current.workspaceId)) === promptId;
    const saved = await d.prompts.updateIfUnchanged(
      promptId,
      current.rev,
      { set: { isPublic: false, updatedAt: next.updatedAt } },
      [d.bus.envelope('prompt.updated', promptSnapshot(next, isDefault))],
    );
    if (!saved) continue;
    d.relay.flushLater(d.models.Prompt, promptId);
    await syncPromptSummaries(d, promptId);
    return true;
  }
  throw new Error(`prompt ${promptId} is too busy to scope to its workspace`);
}

/**
 * Runs the migration at start-up; when the auth service does not answer yet, tries again in
 * the background (the gate stays closed meanwhile). Returns a function that stops retrying.
 */
export async function startPublicScopeMigration(
  d: DomainDeps,
  retryMs = 15_000,
): Promise<() => void> {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = async () => {
    try {
      await scopeLegacyPublicPrompts(d);
    } catch (err) {
      d.logger.warn(
        { err },
        'public prompts not scoped yet (is the auth service up?); they stay inside their workspace meanwhile',
      );
      if (!stopped) {
        timer = setTimeout(() => void attempt(), retryMs);
        timer.unref();
      }
    }
  };
  await attempt();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
