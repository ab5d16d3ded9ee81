import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { USAGE_CURRENCY, USAGE_ROUTES } from '@aict/contracts';
import { RESPONDED, type MountRoute } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { listPrices } from '../domain/usage';
import {
  setBudgetAudited,
  setPriceAudited,
  setRateLimitAudited,
  setUserCapAudited,
} from '../domain/usage-audit';
import {
  budgetStatus,
  myUsage,
  readLimits,
  usageCsv,
  usageOverview,
  usageSummary,
} from '../domain/usage-report';

const presentPrice = (p: Awaited<ReturnType<typeof listPrices>>[number]) => ({
  model: p.model,
  version: p.version,
  currency: USAGE_CURRENCY,
  ...p.price,
});

/**
 * Prices (super admin), budgets, caps and rate limits, the month's summary and CSV. The
 * workspace in view is authorised by the mount (its admins, or any member where the route
 * says so); `workspaceId` is never null on these routes, each names one or requires one.
 */
export function usageRoutes(mount: MountRoute, d: DomainDeps): void {
  const r = USAGE_ROUTES;

  mount(r.prices, async () => ({ prices: (await listPrices(d)).map(presentPrice) }));

  mount(
    r.setPrice,
    async ({ ctx, params, body }) => presentPrice(await setPriceAudited(d, ctx, params.id, body)),
    { bodyLimit: '64kb' },
  );

  mount(r.limits, ({ ctx, workspaceId }) => readLimits(d, ctx, workspaceId!));

  mount(
    r.setBudget,
    ({ ctx, workspaceId, body }) =>
      setBudgetAudited(d, ctx, workspaceId!, body.monthlyBudgetMicros),
    { bodyLimit: '16kb' },
  );

  mount(
    r.setUserCap,
    ({ ctx, workspaceId, params, body }) =>
      setUserCapAudited(d, ctx, workspaceId!, params.userId, body.monthlyCapMicros),
    { bodyLimit: '16kb' },
  );

  mount(
    r.setRateLimit,
    ({ ctx, workspaceId, body }) =>
      setRateLimitAudited(d, ctx, workspaceId!, body.requestsPerMinute),
    { bodyLimit: '16kb' },
  );

  mount(r.summary, ({ ctx, workspaceId, query }) =>
    usageSummary(d, ctx, workspaceId!, query.month),
  );

  mount(r.budgetStatus, ({ ctx, workspaceId }) => budgetStatus(d, ctx, workspaceId!));

  mount(r.mine, ({ ctx, workspaceId }) => myUsage(d, ctx, workspaceId!));

  mount(r.overview, ({ ctx, query }) => usageOverview(d, ctx, query.ids));

  mount(r.exportCsv, async ({ ctx, res, workspaceId, query }) => {
    const csv = await usageCsv(d, ctx, workspaceId!, query.month);
    res
      .type('text/csv; charset=utf-8')
      .attachment(`usage-${csv.workspaceId}-${csv.month}.csv`)
      .set('x-content-type-options', 'nosniff');
    // Streamed: the ledger goes out a batch at a time (never the whole month in memory).
    await pipeline(Readable.from(csv.lines), res);
    return RESPONDED;
  });
}
