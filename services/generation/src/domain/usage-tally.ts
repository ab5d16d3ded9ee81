import type { TallySlotDoc, UsageEntry } from '../data/usage.model';
import type { TallyRow, TallyValue } from '../data/usage.repository';
import type { DomainDeps } from './domain-deps';

// Month tallies: the usage screen's sums (by day, user, model and prompt) kept as a settled
// ledger entry comes in, so the summary reads a handful of documents by `_id` instead of the
// month's ledger (a scan on FerretDB).
//
// A tally has a scope (a workspace's month, a user's month in a workspace) and two parts:
//   slots  `tally:<scope>:<k>`, k = 1, 2, … without gaps, one per settled entry, insert-only
//          (the k-th settled entry takes slot k exactly once);
//   sums   the chain `tally:<scope>` (exact under concurrency), whose version holds the sums
//          of slots 1..upTo; folding adds slots upTo+1, upTo+2, … until one is missing.
// A reader adds the slots not folded yet, so what it sees is exact even before a fold.
//
// Idempotent per ledger entry: the entry records the slot it is about to take (`tally.<kind>`)
// before it takes it, so a re-run (a crash in between) finds its slot holding the entry and
// takes no other. Slots stay gap-free: a writer tries the slot after the highest it knows to
// exist, and the next one on a duplicate key, so slot k+1 is only written once k exists.

type ScopeKind = 'workspace' | 'user';

export const workspaceTally = (workspaceId: number, month: string) => `ws:${workspaceId}:${month}`;
export const userTally = (workspaceId: number, userId: string, month: string) =>
  `user:${workspaceId}:${userId}:${month}`;

/** The chain of a scope's folded sums (in usage_chains). */
const sumsChain = (scope: string) => `tally:${scope}`;

const scopesOf = (entry: UsageEntry): [ScopeKind, string][] => [
  ['workspace', workspaceTally(entry.workspaceId, entry.month)],
  ['user', userTally(entry.workspaceId, entry.userId, entry.month)],
];

type Group = 'byDay' | 'byUser' | 'byModel' | 'byPrompt';

/** A tally being added to: each group by key. */
type OpenTally = { upTo: number } & Record<Group, Map<string, TallyRow>>;

const open = (value: TallyValue | undefined): OpenTally => ({
  upTo: value?.upTo ?? 0,
  byDay: new Map((value?.byDay ?? []).map((row) => [row.key, { ...row }])),
  byUser: new Map((value?.byUser ?? []).map((row) => [row.key, { ...row }])),
  byModel: new Map((value?.byModel ?? []).map((row) => [row.key, { ...row }])),
  byPrompt: new Map((value?.byPrompt ?? []).map((row) => [row.key, { ...row }])),
});

const close = (tally: OpenTally): TallyValue => ({
  upTo: tally.upTo,
  byDay: [...tally.byDay.values()],
  byUser: [...tally.byUser.values()],
  byModel: [...tally.byModel.values()],
  byPrompt: [...tally.byPrompt.values()],
});

function addTo(group: Map<string, TallyRow>, key: string, costMicros: number) {
  const row = group.get(key) ?? { key, costMicros: 0, calls: 0 };
  group.set(key, { key, costMicros: row.costMicros + costMicros, calls: row.calls + 1 });
}

function addSlot(tally: OpenTally, slot: TallySlotDoc) {
  addTo(tally.byDay, slot.day, slot.costMicros);
  addTo(tally.byUser, slot.userId, slot.costMicros);
  addTo(tally.byModel, slot.model, slot.costMicros);
  addTo(tally.byPrompt, slot.promptId ?? '', slot.costMicros);
  tally.upTo += 1;
}

/**
 * Slots after `upTo` that exist now: those the process keeps, then read by `_id`, a few at a
 * time, until one is missing.
 */
async function slotsAfter(d: DomainDeps, scope: string, upTo: number): Promise<TallySlotDoc[]> {
  const found: TallySlotDoc[] = [];
  // The slots this process took or read first (a slot never changes once taken).
  for (let kept = d.usage.keptTallySlot(scope, upTo + 1); kept;) {
    found.push(kept);
    kept = d.usage.keptTallySlot(scope, upTo + found.length + 1);
  }
  for (let batch = 1; ; batch = Math.min(batch * 2, 16)) {
    const from = upTo + found.length + 1;
    const read = await Promise.all(
      Array.from({ length: batch }, (_, i) => d.usage.readTallySlot(scope, from + i)),
    );
    for (const slot of read) {
      if (!slot) return found;
      found.push(slot);
    }
  }
}

/** The tally of a scope now: its latest sums plus the slots not folded yet. */
export async function readTally(
  d: DomainDeps,
  scope: string,
): Promise<{ n: number; value: TallyValue; pending: number }> {
  const latest = await d.usage.tallies.latest(sumsChain(scope));
  const tally = open(latest?.value);
  const pending = await slotsAfter(d, scope, tally.upTo);
  for (const slot of pending) addSlot(tally, slot);
  return { n: latest?.n ?? 0, value: close(tally), pending: pending.length };
}

/** Folds the scope's new slots into its sums (a new version of its chain). */
async function fold(d: DomainDeps, scope: string): Promise<void> {
  await d.locks.run(`usage:tally-fold:${scope}`, async () => {
    for (;;) {
      const { n, value, pending } = await readTally(d, scope);
      if (pending === 0) return;
      if (await d.usage.tallies.append(sumsChain(scope), n + 1, value)) return;
    }
  });
}

/** What a settled entry adds to a tally, as its slot. */
const slotOf = (entry: UsageEntry): Omit<TallySlotDoc, '_id'> => ({
  entryId: entry._id,
  day: entry.day,
  userId: entry.userId,
  model: entry.model,
  promptId: entry.promptId,
  costMicros: entry.costMicros,
  at: new Date(),
});

const slotLock = (scope: string) => `usage:tally-slot:${scope}`;

/** The slot to try next (under the scope's lock): after the highest this process knows. */
async function nextSlot(d: DomainDeps, scope: string): Promise<number> {
  // Only a scope new to the process reads the sums.
  const seen = d.usage.seenTallySlot(scope);
  const upTo = seen > 0 ? 0 : ((await d.usage.tallies.latest(sumsChain(scope)))?.value.upTo ?? 0);
  return Math.max(upTo, seen) + 1;
}

/** Marks then takes the first free slot from k on (under the scope's lock); its number. */
async function takeFrom(
  d: DomainDeps,
  kind: ScopeKind,
  scope: string,
  entry: UsageEntry,
  k: number,
): Promise<number> {
  const slot = slotOf(entry);
  for (;;) {
    await d.usage.markTallySlot(entry._id, kind, k);
    if (await d.usage.insertTallySlot(scope, k, slot)) return k;
    k = Math.max(k, d.usage.seenTallySlot(scope)) + 1;
  }
}

/** Gives the entry its slot in one scope, unless it has one already; the slot's number. */
async function takeSlot(
  d: DomainDeps,
  kind: ScopeKind,
  scope: string,
  entry: UsageEntry,
): Promise<number> {
  const marked = entry.tally?.[kind];
  if (marked) {
    const slot = await d.usage.readTallySlot(scope, marked);
    if (slot?.entryId === entry._id) return marked;
  }
  return d.locks.run(slotLock(scope), async () =>
    takeFrom(d, kind, scope, entry, await nextSlot(d, scope)),
  );
}

/** Folds the scopes whose slot just taken is a multiple of FOLD_EVERY. */
async function foldDue(d: DomainDeps, scopes: [ScopeKind, string][], taken: number[]) {
  // Readers add the slots not folded yet (a few reads by `_id`).
  await Promise.all(
    scopes.map(([, scope], i) => (taken[i]! % FOLD_EVERY === 0 ? fold(d, scope) : undefined)),
  );
}

/**
 * Counts a settled entry in its workspace's and its user's month tallies, exactly once
 * (a re-run after a crash counts nothing twice), then folds them.
 */
export async function tallyEntry(d: DomainDeps, entry: UsageEntry): Promise<void> {
  if (!entry.settled) return;
  // The slots it took are read from the stored entry (the caller's copy may predate them).
  const stored = await d.usage.findEntry(entry._id);
  const current = { ...entry, tally: stored?.tally };
  const scopes = scopesOf(entry);
  const taken: number[] = [];
  for (const [kind, scope] of scopes) taken.push(await takeSlot(d, kind, scope, current));
  await foldDue(d, scopes, taken);
}

/**
 * Settles an entry (`settled`: what settling sets) and counts it in both month tallies. The
 * entry's copy is the stored one as of its claim, and only the settle writes its marks. An
 * entry that has marked no slot yet (every settle but a re-run's) is settled by the update
 * that marks its two slots, under both scopes' locks: one update and two inserts instead of
 * an update, a read and two marks before the inserts. Exactly once as `tallyEntry`: the
 * marks are written before the slots are taken.
 */
export async function settleIntoTallies(
  d: DomainDeps,
  entry: UsageEntry,
  settled: Partial<UsageEntry>,
): Promise<void> {
  const done = { ...entry, ...settled };
  if (!done.settled || entry.tally?.workspace || entry.tally?.user) {
    await d.usage.updateEntry(entry._id, settled);
    return tallyEntry(d, done);
  }
  const scopes = scopesOf(done);
  const [[, first], [, second]] = scopes as [[ScopeKind, string], [ScopeKind, string]];
  const taken = await d.locks.run(slotLock(first), () =>
    d.locks.run(slotLock(second), async () => {
      const ks = await Promise.all(scopes.map(([, scope]) => nextSlot(d, scope)));
      await d.usage.updateEntry(entry._id, {
        ...settled,
        tally: { workspace: ks[0], user: ks[1] },
      });
      const slot = slotOf(done);
      return Promise.all(
        scopes.map(async ([kind, scope], i) =>
          (await d.usage.insertTallySlot(scope, ks[i]!, slot))
            ? ks[i]!
            : takeFrom(d, kind, scope, done, Math.max(ks[i]!, d.usage.seenTallySlot(scope)) + 1),
        ),
      );
    }),
  );
  await foldDue(d, scopes, taken);
}

/** A scope's sums take in its new slots once per this many slots. */
export const FOLD_EVERY = 8;

/** Settled entries of a month missing from their tallies are counted (a repair; a query). */
export async function repairTallies(d: DomainDeps, workspaceId: number, month: string) {
  const entries = await d.usage.listMonth(workspaceId, month);
  for (const entry of entries) await tallyEntry(d, entry);
  // and leaves every scope it touched folded.
  const scopes = new Set(entries.flatMap((entry) => scopesOf(entry).map(([, scope]) => scope)));
  for (const scope of scopes) await fold(d, scope);
}
