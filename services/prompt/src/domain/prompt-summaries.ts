import type { PromptRecord } from '../data/prompt.model';
import type { PromptSummaryFields } from '../data/prompt.repository';
import {
  PUBLIC_SUMMARY,
  toSummaryEntry,
  workspaceSummary,
  type SummaryEntry,
} from '../data/prompt-summary.model';
import type { DomainDeps } from './domain-deps';

// The summaries the list route reads by `_id` (ARCHITECTURE "Data on both engines"): the
// chain `ws:<id>` per workspace and the chain `public` (service-kit data/chain.ts). They are derived from
// the prompts:
//
// - every write use case syncs the entries of the prompt it wrote, after writing it;
// - the prompt's own events (published by the outbox even after a crash between the write and
//   the sync) sync them again (events/own-events.consumer.ts);
// - `rebuildWorkspaceIndex` / `rebuildPublicIndex` rebuild a summary whole from the prompts,
//   and a summary that does not exist yet is built on first use.
//
// Each attempt reads the latest version, THEN the prompt(s), and inserts the next version,
// which fails when anyone else wrote it first (then it starts again). So whatever the
// interleaving, the latest version reflects reads of the prompts that followed every write
// synced before it; rebuilds obey the same rule.

const MAX_ATTEMPTS = 50;

/** One summary and how to derive it from the prompts. */
interface Summary {
  chain: string;
  /** Every prompt the summary should hold (a scan: repairs and first use only). */
  load: () => Promise<PromptSummaryFields[]>;
  /** Whether a live prompt belongs in the summary. */
  admits: (prompt: PromptRecord) => boolean;
}

const workspaceIndex = (d: DomainDeps, workspaceId: number): Summary => ({
  chain: workspaceSummary(workspaceId),
  load: () => d.prompts.listOfWorkspace(workspaceId),
  admits: (prompt) => prompt.workspaceId === workspaceId,
});

const publicIndex = (d: DomainDeps): Summary => ({
  chain: PUBLIC_SUMMARY,
  load: () => d.prompts.listPublic(),
  admits: (prompt) => prompt.isPublic,
});

const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * (attempt + 1), 50)));

/** Entries compared by content (key order aside). */
function sameEntry(a: SummaryEntry | undefined, b: SummaryEntry | undefined): boolean {
  if (!a || !b) return a === b;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof SummaryEntry>;
  return [...keys].every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

function sameEntries(a: readonly SummaryEntry[], b: readonly SummaryEntry[]): boolean {
  if (a.length !== b.length) return false;
  const byId = new Map(b.map((entry) => [entry.id, entry]));
  return a.every((entry) => sameEntry(entry, byId.get(entry.id)));
}

async function rebuild(d: DomainDeps, summary: Summary): Promise<SummaryEntry[]> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const latest = await d.summaries.latest(summary.chain);
    if (latest?.value.closed) return [];
    const entries = (await summary.load()).map((prompt) => toSummaryEntry(prompt));
    if (latest && sameEntries(latest.value.entries, entries)) return entries;
    if (await d.summaries.append(summary.chain, (latest?.n ?? 0) + 1, { entries })) return entries;
    await pause(attempt);
  }
  throw new Error(`summary ${summary.chain} is too busy to rebuild`);
}

/** Brings one prompt's entry in one summary up to date with the prompt as stored now. */
async function syncEntry(d: DomainDeps, summary: Summary, promptId: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const latest = await d.summaries.latest(summary.chain);
    const prompt = await d.prompts.findById(promptId);
    const wanted = prompt && summary.admits(prompt) ? toSummaryEntry(prompt) : undefined;
    if (!latest) {
      // No summary yet: build it whole (one holding only this entry would hide the prompts
      // written before it). Nothing to remove from a summary that does not exist.
      if (wanted) await rebuild(d, summary);
      return;
    }
    if (latest.value.closed) return;
    const entries = latest.value.entries;
    if (
      sameEntry(
        entries.find((entry) => entry.id === promptId),
        wanted,
      )
    )
      return;
    const next = entries.filter((entry) => entry.id !== promptId);
    if (wanted) next.push(wanted);
    if (await d.summaries.append(summary.chain, latest.n + 1, { entries: next })) return;
    await pause(attempt);
  }
  throw new Error(`summary ${summary.chain} is too busy to update ${promptId}`);
}

/**
 * Brings a prompt's entries (its workspace's summary and the public one) up to date with the
 * prompt as stored now; idempotent. `workspaceId` names the workspace when the prompt itself
 * is already gone for good.
 */
export async function syncPromptSummaries(
  d: DomainDeps,
  promptId: string,
  workspaceId?: number | null,
): Promise<void> {
  const stored = await d.prompts.findIncludingDeleted(promptId);
  const ownerWorkspace = stored?.workspaceId ?? workspaceId ?? null;
  if (ownerWorkspace !== null) await syncEntry(d, workspaceIndex(d, ownerWorkspace), promptId);
  await syncEntry(d, publicIndex(d), promptId);
}

/**
 * `syncPromptSummaries` after a write that already succeeded: a failure is logged, not
 * answered (the prompt's event repairs the summaries once it is consumed).
 */
export async function syncPromptSummariesAfterWrite(
  d: DomainDeps,
  promptId: string,
  workspaceId?: number | null,
): Promise<void> {
  try {
    await syncPromptSummaries(d, promptId, workspaceId);
  } catch (err) {
    d.logger.warn({ err, promptId }, 'prompt summaries not synced; its event will repair them');
  }
}

/** Rebuilds a workspace's summary from its prompts (a repair; idempotent). */
export function rebuildWorkspaceIndex(d: DomainDeps, workspaceId: number): Promise<SummaryEntry[]> {
  return rebuild(d, workspaceIndex(d, workspaceId));
}

/** Rebuilds the public summary from the public prompts (a repair; idempotent). */
export function rebuildPublicIndex(d: DomainDeps): Promise<SummaryEntry[]> {
  return rebuild(d, publicIndex(d));
}

async function read(d: DomainDeps, summary: Summary): Promise<SummaryEntry[]> {
  const latest = await d.summaries.latest(summary.chain);
  return latest ? latest.value.entries : rebuild(d, summary);
}

/** A workspace's summaries: reads by `_id` (built from the prompts on first use). */
export function workspaceSummaries(d: DomainDeps, workspaceId: number): Promise<SummaryEntry[]> {
  return read(d, workspaceIndex(d, workspaceId));
}

/** The public summaries: reads by `_id`. */
export function publicSummaries(d: DomainDeps): Promise<SummaryEntry[]> {
  return read(d, publicIndex(d));
}

/**
 * Closes a workspace's summary (the workspace is gone): a last, empty version that syncs
 * still in flight leave alone (a dropped chain would be written again by them), then the
 * versions before it go.
 */
export async function closeWorkspaceIndex(d: DomainDeps, workspaceId: number): Promise<void> {
  const chain = workspaceSummary(workspaceId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const latest = await d.summaries.latest(chain);
    const n = (latest?.n ?? 0) + 1;
    if (
      latest?.value.closed ||
      (await d.summaries.append(chain, n, { entries: [], closed: true }))
    ) {
      await d.summaries.dropBefore(chain, latest?.value.closed ? latest.n : n);
      return;
    }
    await pause(attempt);
  }
  throw new Error(`summary ${chain} is too busy to close`);
}
