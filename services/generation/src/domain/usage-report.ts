import {
  BUDGET_WARNING_SHARE,
  USAGE_CURRENCY,
  type BudgetStatus,
  type MyUsage,
  type TrustedContext,
  type UsageLimits,
  type UsageOverview,
  type UsageSummary,
} from '@aict/contracts';
import type { UsageEntry } from '../data/usage.model';
import type { TallyRow } from '../data/usage.repository';
import type { DomainDeps } from './domain-deps';
import { codeError } from './generation.errors';
import { readTally, userTally, workspaceTally } from './usage-tally';
import {
  budgetLimit,
  monthOf,
  rateLimit,
  spentOn,
  userCapLimit,
  userCounter,
  workspaceCounter,
} from './usage';

const isAdminOf = (ctx: TrustedContext, workspaceId: number) =>
  ctx.sa || ctx.roles[String(workspaceId)] === 'admin';

/** The workspace's limits and ledger are for its admins (or the super admin): members get 403. */
function assertAdminOf(ctx: TrustedContext, workspaceId: number): void {
  if (!isAdminOf(ctx, workspaceId)) throw codeError('AUTH.FORBIDDEN');
}

interface CapDoc {
  _id: string;
  value: number | null;
  workspaceId?: number;
  userId?: string;
}

export async function readLimits(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<UsageLimits> {
  assertAdminOf(ctx, workspaceId);
  const [budget, rate, caps] = await Promise.all([
    d.usage.readLimit(budgetLimit(workspaceId)),
    d.usage.readLimit(rateLimit(workspaceId)),
    d.usage.listCaps(workspaceId) as Promise<CapDoc[]>,
  ]);
  const userCaps: Record<string, number> = {};
  for (const cap of caps) if (cap.userId && cap.value !== null) userCaps[cap.userId] = cap.value;
  return { workspaceId, monthlyBudgetMicros: budget, requestsPerMinute: rate, userCaps };
}

export async function setBudget(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  value: number | null,
) {
  if (!ctx.sa) throw codeError('AUTH.FORBIDDEN');
  await d.usage.writeLimit(budgetLimit(workspaceId), value);
  return readLimits(d, ctx, workspaceId);
}

export async function setUserCap(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  userId: string,
  value: number | null,
) {
  assertAdminOf(ctx, workspaceId);
  await d.usage.writeLimit(userCapLimit(workspaceId, userId), value, {
    kind: 'cap',
    workspaceId,
    userId,
  });
  return readLimits(d, ctx, workspaceId);
}

export async function setRateLimit(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  value: number | null,
) {
  assertAdminOf(ctx, workspaceId);
  await d.usage.writeLimit(rateLimit(workspaceId), value);
  return readLimits(d, ctx, workspaceId);
}

const rowsOf = (group: TallyRow[]) =>
  group.map(({ key, costMicros, calls }) => ({ key, costMicros, calls }));

const byCost = (rows: TallyRow[]) =>
  rows.sort((a, b) => b.costMicros - a.costMicros || a.key.localeCompare(b.key));

/**
 * The month of a workspace: spent so far from the counters (by `_id`), the budget and the
 * warning for its admins, and the settled calls grouped from the month's tally (by `_id`,
 * domain/usage-tally.ts). A member who is not an admin sees their own calls only.
 */
export async function usageSummary(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  monthAsked: string | undefined,
): Promise<UsageSummary> {
  const admin = isAdminOf(ctx, workspaceId);
  await d.usageRuntime.settles.drain(workspaceId);
  const month = monthAsked ?? monthOf(d.clock.now());
  const uid = ctx.uid!;
  const [spent, budget, userSpent, cap, tally] = await Promise.all([
    spentOn(d, workspaceCounter(workspaceId, month)),
    d.usage.readLimit(budgetLimit(workspaceId)),
    spentOn(d, userCounter(workspaceId, uid, month)),
    d.usage.readLimit(userCapLimit(workspaceId, uid)),
    readTally(d, admin ? workspaceTally(workspaceId, month) : userTally(workspaceId, uid, month)),
  ]);
  const sums = tally.value;
  const reached = budget !== null && spent >= budget;
  return {
    workspaceId,
    month,
    currency: USAGE_CURRENCY,
    scope: admin ? 'workspace' : 'user',
    spentMicros: admin ? spent : userSpent,
    monthlyBudgetMicros: admin ? budget : null,
    userSpentMicros: userSpent,
    userCapMicros: cap,
    warning: admin && budget !== null && spent >= budget * BUDGET_WARNING_SHARE,
    reached: admin ? reached : reached || (cap !== null && userSpent >= cap),
    byDay: rowsOf(sums.byDay).sort((a, b) => a.key.localeCompare(b.key)),
    byUser: byCost(rowsOf(sums.byUser)),
    byModel: byCost(rowsOf(sums.byModel)),
    byPrompt: byCost(rowsOf(sums.byPrompt)),
  };
}

/** The budget state of a month: the warning at ≥ 80 %, reached at 100 %. */
const budgetState = (spent: number, budget: number | null) => ({
  warning: budget !== null && spent >= budget * BUDGET_WARNING_SHARE,
  reached: budget !== null && spent >= budget,
});

/**
 * This month's spend against the budget for the workspace's admins (the shell's banner):
 * two reads by `_id` (the counter and the budget), no tally, no ledger.
 */
export async function budgetStatus(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<BudgetStatus> {
  assertAdminOf(ctx, workspaceId);
  const month = monthOf(d.clock.now());
  const [spent, budget] = await Promise.all([
    spentOn(d, workspaceCounter(workspaceId, month)),
    d.usage.readLimit(budgetLimit(workspaceId)),
  ]);
  return {
    workspaceId,
    month,
    currency: USAGE_CURRENCY,
    spentMicros: spent,
    monthlyBudgetMicros: budget,
    ...budgetState(spent, budget),
  };
}

/**
 * The caller's own month in a workspace (any member, /stats): their counter, cap and the
 * number of their settled calls from their own tally, all by `_id`. Only `ctx.uid`'s
 * figures: no user can be named.
 */
export async function myUsage(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
): Promise<MyUsage> {
  if (!ctx.uid) throw codeError('AUTH.FORBIDDEN');
  const uid = ctx.uid;
  const month = monthOf(d.clock.now());
  await d.usageRuntime.settles.drain(workspaceId);
  const [spent, cap, tally] = await Promise.all([
    spentOn(d, userCounter(workspaceId, uid, month)),
    d.usage.readLimit(userCapLimit(workspaceId, uid)),
    readTally(d, userTally(workspaceId, uid, month)),
  ]);
  return {
    workspaceId,
    month,
    currency: USAGE_CURRENCY,
    spentMicros: spent,
    generations: tally.value.byDay.reduce((sum, row) => sum + row.calls, 0),
    capMicros: cap,
  };
}

const OVERVIEW_BATCH = 25;

/** Spent as a whole percentage of the budget (a budget of 0 is used up at once). */
function usedPercent(spent: number, budget: number | null): number | null {
  if (budget === null) return null;
  if (budget === 0) return 100;
  return Math.floor((spent * 100) / budget);
}

/**
 * The super admin's side by side view: for each named workspace this month's counter and
 * budget (two reads by `_id` each, no scan), the highest spend first.
 */
export async function usageOverview(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceIds: number[],
): Promise<UsageOverview> {
  if (!ctx.sa) throw codeError('AUTH.FORBIDDEN');
  const month = monthOf(d.clock.now());
  const rows: UsageOverview['workspaces'] = [];
  // A few dozen at a time: a long list must not open a thousand reads at once.
  for (let i = 0; i < workspaceIds.length; i += OVERVIEW_BATCH) {
    const batch = workspaceIds.slice(i, i + OVERVIEW_BATCH);
    rows.push(
      ...(await Promise.all(
        batch.map(async (workspaceId) => {
          const [spent, budget] = await Promise.all([
            spentOn(d, workspaceCounter(workspaceId, month)),
            d.usage.readLimit(budgetLimit(workspaceId)),
          ]);
          return {
            workspaceId,
            spentMicros: spent,
            monthlyBudgetMicros: budget,
            usedPercent: usedPercent(spent, budget),
          };
        }),
      )),
    );
  }
  rows.sort((a, b) => b.spentMicros - a.spentMicros || a.workspaceId - b.workspaceId);
  return { month, currency: USAGE_CURRENCY, workspaces: rows };
}

const CSV_COLUMNS = [
  'id',
  'startedAt',
  'workspaceId',
  'userId',
  'promptId',
  'model',
  'kind',
  'outcome',
  'inputTokens',
  'outputTokens',
  'images',
  'imageSize',
  'imageQuality',
  'durationMs',
  'priceVersion',
  'costMicros',
  'currency',
] as const;

/** A CSV field: quoted when it holds a comma, quote or line break; formulas defused. */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The month's ledger of a workspace as CSV (its admins), a line at a time: the entries come
 * from a cursor in batches and go out as they come, so the service never holds the month.
 * (Reading them is still a query on workspace + month: a scan of the ledger on FerretDB.)
 */
export async function usageCsv(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  monthAsked: string | undefined,
): Promise<{ month: string; workspaceId: number; lines: AsyncIterable<string> }> {
  assertAdminOf(ctx, workspaceId);
  const month = monthAsked ?? monthOf(d.clock.now());
  await d.usageRuntime.settles.drain(workspaceId);
  const entries = d.usage.streamMonth(workspaceId, month)[Symbol.asyncIterator]();
  // The query runs (and fails: 503, not a cut-off file) before anything is sent.
  const first = await entries.next();
  return { month, workspaceId, lines: csvLines(first, entries) };
}

/** The CSV's header, then one line per entry (CRLF). */
async function* csvLines(
  first: IteratorResult<UsageEntry>,
  rest: AsyncIterator<UsageEntry>,
): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  for (let next = first; !next.done; next = await rest.next()) {
    const e = next.value;
    const fields = [
      e._id,
      e.startedAt.toISOString(),
      e.workspaceId,
      e.userId,
      e.promptId,
      e.model,
      e.kind,
      e.outcome,
      e.inputTokens,
      e.outputTokens,
      e.images?.count ?? 0,
      e.images?.size,
      e.images?.quality,
      e.durationMs,
      e.priceVersion,
      e.settled ? e.costMicros : e.estimateMicros,
      e.currency,
    ];
    yield `${fields.map(csvField).join(',')}\r\n`;
  }
}
