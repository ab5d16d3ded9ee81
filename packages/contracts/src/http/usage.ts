import { z } from 'zod';
import { WorkspaceId } from '../ids';
import { FILE_RESPONSE, OptionalWorkspaceQuery, WorkspaceQuery, type RouteDef } from './route';

/** Costs are integer micro-units of the currency (1 USD = 1 000 000). */
export const USAGE_CURRENCY = 'USD';
/** At this share of the monthly budget the workspace's admins see a warning. */
export const BUDGET_WARNING_SHARE = 0.8;

const Micros = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A calendar month in UTC, `YYYY-MM`. */
export const UsageMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Month must be YYYY-MM');
const ModelName = z.string().trim().min(1).max(64);
const ImagePriceKey = z.string().regex(/^\d{2,5}x\d{2,5}:[a-z]{1,16}$/, 'Use WIDTHxHEIGHT:quality');

/** What one model costs: per million input and output tokens, per image by `size:quality`. */
export const PriceBody = z.object({
  inputPerMillion: Micros,
  outputPerMillion: Micros,
  perImage: z
    .record(ImagePriceKey, Micros)
    .refine((prices) => Object.keys(prices).length <= 20, 'Too many image prices')
    .default({}),
});
export type PriceBody = z.infer<typeof PriceBody>;

/** A model's price; `version` 0 is the built-in default, every edit adds one. */
export const ModelPrice = PriceBody.extend({
  model: ModelName,
  version: z.number().int().min(0),
  currency: z.string(),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

export const PricesResponse = z.object({ prices: z.array(ModelPrice) });

/** The workspace's monthly budget (super admin); null: no budget. */
export const BudgetBody = z.object({ monthlyBudgetMicros: Micros.nullable() });
export type BudgetBody = z.infer<typeof BudgetBody>;

/** A user's monthly cap within the workspace (workspace admins); null: no cap. */
export const UserCapBody = z.object({ monthlyCapMicros: Micros.nullable() });
export type UserCapBody = z.infer<typeof UserCapBody>;

/** Generations per user per minute in the workspace (workspace admins); null: no limit. */
export const RateLimitBody = z.object({
  requestsPerMinute: z.number().int().min(1).max(10_000).nullable(),
});
export type RateLimitBody = z.infer<typeof RateLimitBody>;

export const UsageLimits = z.object({
  workspaceId: WorkspaceId,
  monthlyBudgetMicros: Micros.nullable(),
  requestsPerMinute: z.number().int().nullable(),
  userCaps: z.record(z.string(), Micros),
});
export type UsageLimits = z.infer<typeof UsageLimits>;

const UserCapParams = z.object({ userId: z.string().trim().min(1).max(128) });

export const UsageSummaryQuery = OptionalWorkspaceQuery.extend({ month: UsageMonth.optional() });

const CostRow = z.object({ key: z.string(), costMicros: Micros, calls: z.number().int() });

/**
 * A workspace's month: spent so far (the counters) against the budget, the warning flag for
 * its admins (≥ 80 %), and the ledger by day, user, model and prompt. A member sees their own
 * share only (`scope: 'user'`).
 */
export const UsageSummary = z.object({
  workspaceId: WorkspaceId,
  month: UsageMonth,
  currency: z.string(),
  scope: z.enum(['workspace', 'user']),
  spentMicros: Micros,
  monthlyBudgetMicros: Micros.nullable(),
  /** The caller's own spend and cap this month. */
  userSpentMicros: Micros,
  userCapMicros: Micros.nullable(),
  warning: z.boolean(),
  reached: z.boolean(),
  byDay: z.array(CostRow),
  byUser: z.array(CostRow),
  byModel: z.array(CostRow),
  byPrompt: z.array(CostRow),
});
export type UsageSummary = z.infer<typeof UsageSummary>;

/** Workspaces the super admin's overview asks for at most (ids in one query). */
export const USAGE_OVERVIEW_MAX_WORKSPACES = 500;

/**
 * The light read behind the shell's budget banner (workspace admins): this month's counter
 * against the budget, by `_id`. `warning` at ≥ 80 %, `reached` at 100 %.
 */
export const BudgetStatus = z.object({
  workspaceId: WorkspaceId,
  month: UsageMonth,
  currency: z.string(),
  spentMicros: Micros,
  monthlyBudgetMicros: Micros.nullable(),
  warning: z.boolean(),
  reached: z.boolean(),
});
export type BudgetStatus = z.infer<typeof BudgetStatus>;

/** The caller's own month in a workspace (any member; never another user's figures). */
export const MyUsage = z.object({
  workspaceId: WorkspaceId,
  month: UsageMonth,
  currency: z.string(),
  spentMicros: Micros,
  /** Settled generations (provider calls) this month. */
  generations: z.number().int().min(0),
  capMicros: Micros.nullable(),
});
export type MyUsage = z.infer<typeof MyUsage>;

/** `ids`: the workspaces to compare, comma-separated (the super admin's workspace list). */
export const UsageOverviewQuery = z.object({
  ids: z
    .string()
    .regex(/^\d{1,15}(,\d{1,15})*$/, 'ids must be workspace ids separated by commas')
    .transform((text) => [...new Set(text.split(',').map(Number))])
    .refine((ids) => ids.every((id) => Number.isSafeInteger(id) && id >= 1), 'Invalid workspace id')
    .refine(
      (ids) => ids.length <= USAGE_OVERVIEW_MAX_WORKSPACES,
      `At most ${USAGE_OVERVIEW_MAX_WORKSPACES} workspaces`,
    ),
});

export const UsageOverviewRow = z.object({
  workspaceId: WorkspaceId,
  spentMicros: Micros,
  monthlyBudgetMicros: Micros.nullable(),
  /** Spent as a percentage of the budget (rounded down); null without a budget. */
  usedPercent: z.number().int().min(0).nullable(),
});
export type UsageOverviewRow = z.infer<typeof UsageOverviewRow>;

/** Every asked workspace's month side by side (super admin), the highest spend first. */
export const UsageOverview = z.object({
  month: UsageMonth,
  currency: z.string(),
  workspaces: z.array(UsageOverviewRow),
});
export type UsageOverview = z.infer<typeof UsageOverview>;

export const USAGE_ROUTES = {
  prices: {
    method: 'GET',
    path: '/api/usage/prices',
    service: 'generation',
    access: 'super-admin',
    response: PricesResponse,
  },
  setPrice: {
    method: 'PUT',
    /** `:id` is the model's name (gpt-4o…). */
    path: '/api/usage/prices/:id',
    service: 'generation',
    access: 'super-admin',
    params: z.object({ id: ModelName }),
    body: PriceBody,
    response: ModelPrice,
  },
  limits: {
    method: 'GET',
    path: '/api/usage/limits',
    service: 'generation',
    access: 'workspace-admin',
    query: WorkspaceQuery,
    response: UsageLimits,
  },
  setBudget: {
    method: 'PUT',
    path: '/api/usage/limits/budget',
    service: 'generation',
    access: 'super-admin',
    query: WorkspaceQuery,
    body: BudgetBody,
    response: UsageLimits,
  },
  setUserCap: {
    method: 'PUT',
    path: '/api/usage/limits/users/:userId',
    service: 'generation',
    access: 'workspace-admin',
    params: UserCapParams,
    query: WorkspaceQuery,
    body: UserCapBody,
    response: UsageLimits,
  },
  setRateLimit: {
    method: 'PUT',
    path: '/api/usage/limits/rate',
    service: 'generation',
    access: 'workspace-admin',
    query: WorkspaceQuery,
    body: RateLimitBody,
    response: UsageLimits,
  },
  summary: {
    method: 'GET',
    path: '/api/usage/summary',
    service: 'generation',
    access: 'member',
    query: UsageSummaryQuery,
    response: UsageSummary,
  },
  /** This month's spend against the budget, by `_id` (the shell's banner; workspace admins). */
  budgetStatus: {
    method: 'GET',
    path: '/api/usage/budget-status',
    service: 'generation',
    access: 'workspace-admin',
    query: WorkspaceQuery,
    response: BudgetStatus,
  },
  /** The caller's own month (/stats; any member). */
  mine: {
    method: 'GET',
    path: '/api/usage/me',
    service: 'generation',
    access: 'member',
    query: WorkspaceQuery,
    response: MyUsage,
  },
  /** Every named workspace's month side by side (super admin). */
  overview: {
    method: 'GET',
    path: '/api/usage/workspaces',
    service: 'generation',
    access: 'super-admin',
    query: UsageOverviewQuery,
    response: UsageOverview,
  },
  /** The month's ledger as CSV (workspace admins). */
  exportCsv: {
    method: 'GET',
    path: '/api/usage/export',
    service: 'generation',
    access: 'workspace-admin',
    query: UsageSummaryQuery,
    response: FILE_RESPONSE,
  },
} as const satisfies Record<string, RouteDef>;
