import {
  BUDGET_WARNING_SHARE,
  USAGE_CURRENCY,
  type TrustedContext,
  type UsageLimits,
  type UsageSummary,
} from '@aict/contracts';
import type { TallyRow } from '../data/usage.repository';
import type { DomainDeps } from './domain-deps';
import { codeError } from './generation.errors';
import { requireWorkspace } from './upstream';
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

/** The workspace in view, for its admins (or the super admin); members get 403. */
function adminWorkspace(ctx: TrustedContext, workspaceId: number | undefined): number {
  const id = requireWorkspace(ctx, [workspaceId], 'Select a workspace.');
  if (!isAdminOf(ctx, id)) throw codeError('AUTH.FORBIDDEN');
  return id;
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
  workspaceNamed: number | undefined,
): Promise<UsageLimits> {
  const workspaceId = adminWorkspace(ctx, workspaceNamed);
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
  workspaceNamed: number | undefined,
  value: number | null,
) {
  if (!ctx.sa) throw codeError('AUTH.FORBIDDEN');
  const workspaceId = adminWorkspace(ctx, workspaceNamed);
  await d.usage.writeLimit(budgetLimit(workspaceId), value);
  return readLimits(d, ctx, workspaceId);
}

export async function setUserCap(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceNamed: number | undefined,
  userId: string,
  value: number | null,
) {
  const workspaceId = adminWorkspace(ctx, workspaceNamed);
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
  workspaceNamed: number | undefined,
  value: number | null,
) {
  const workspaceId = adminWorkspace(ctx, workspaceNamed);
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
  workspaceNamed: number | undefined,
  monthAsked: string | undefined,
): Promise<UsageSummary> {
  const workspaceId = requireWorkspace(ctx, [workspaceNamed], 'Select a workspace.');
  const admin = isAdminOf(ctx, workspaceId);
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

/** The month's ledger of a workspace as CSV (its admins). */
export async function usageCsv(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceNamed: number | undefined,
  monthAsked: string | undefined,
): Promise<{ month: string; workspaceId: number; csv: string }> {
  const workspaceId = adminWorkspace(ctx, workspaceNamed);
  const month = monthAsked ?? monthOf(d.clock.now());
  const entries = await d.usage.listMonth(workspaceId, month);
  const lines = [CSV_COLUMNS.join(',')];
  for (const e of entries) {
    lines.push(
      [
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
      ]
        .map(csvField)
        .join(','),
    );
  }
  return { month, workspaceId, csv: `${lines.join('\r\n')}\r\n` };
}
