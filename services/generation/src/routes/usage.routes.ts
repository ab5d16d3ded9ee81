import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RequestHandler, Router } from 'express';
import { USAGE_CURRENCY, USAGE_ROUTES } from '@aict/contracts';
import { contextOf, jsonBody } from '@aict/service-kit';
import type { DomainDeps } from '../domain/domain-deps';
import { codeError } from '../domain/generation.errors';
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

/** Prices (super admin), budgets, caps and rate limits, the month's summary and CSV. */
export function usageRoutes(router: Router, d: DomainDeps, signedIn: RequestHandler): void {
  const r = USAGE_ROUTES;
  const superAdminOnly: RequestHandler = (req, _res, next) => {
    if (!contextOf(req).sa) return next(codeError('AUTH.FORBIDDEN'));
    next();
  };

  router.get(r.prices.path, signedIn, superAdminOnly, async (_req, res) => {
    res.json({ prices: (await listPrices(d)).map(presentPrice) });
  });

  router.put(r.setPrice.path, signedIn, superAdminOnly, jsonBody('64kb'), async (req, res) => {
    const { id: model } = r.setPrice.params.parse(req.params);
    const body = r.setPrice.body.parse(req.body ?? {});
    res.json(presentPrice(await setPriceAudited(d, contextOf(req), model, body)));
  });

  router.get(r.limits.path, signedIn, async (req, res) => {
    const { workspaceId } = r.limits.query.parse(req.query);
    res.json(await readLimits(d, contextOf(req), workspaceId));
  });

  router.put(r.setBudget.path, signedIn, superAdminOnly, jsonBody('16kb'), async (req, res) => {
    const { workspaceId } = r.setBudget.query.parse(req.query);
    const body = r.setBudget.body.parse(req.body ?? {});
    res.json(await setBudgetAudited(d, contextOf(req), workspaceId, body.monthlyBudgetMicros));
  });

  router.put(r.setUserCap.path, signedIn, jsonBody('16kb'), async (req, res) => {
    const { userId } = r.setUserCap.params.parse(req.params);
    const { workspaceId } = r.setUserCap.query.parse(req.query);
    const body = r.setUserCap.body.parse(req.body ?? {});
    res.json(
      await setUserCapAudited(d, contextOf(req), workspaceId, userId, body.monthlyCapMicros),
    );
  });

  router.put(r.setRateLimit.path, signedIn, jsonBody('16kb'), async (req, res) => {
    const { workspaceId } = r.setRateLimit.query.parse(req.query);
    const body = r.setRateLimit.body.parse(req.body ?? {});
    res.json(await setRateLimitAudited(d, contextOf(req), workspaceId, body.requestsPerMinute));
  });

  router.get(r.summary.path, signedIn, async (req, res) => {
    const { workspaceId, month } = r.summary.query.parse(req.query);
    res.json(await usageSummary(d, contextOf(req), workspaceId, month));
  });

  router.get(r.budgetStatus.path, signedIn, async (req, res) => {
    const { workspaceId } = r.budgetStatus.query.parse(req.query);
    res.json(await budgetStatus(d, contextOf(req), workspaceId));
  });

  router.get(r.mine.path, signedIn, async (req, res) => {
    const { workspaceId } = r.mine.query.parse(req.query);
    res.json(await myUsage(d, contextOf(req), workspaceId));
  });

  router.get(r.overview.path, signedIn, superAdminOnly, async (req, res) => {
    const { ids } = r.overview.query.parse(req.query);
    res.json(await usageOverview(d, contextOf(req), ids));
  });

  router.get(r.exportCsv.path, signedIn, async (req, res) => {
    const query = r.exportCsv.query.parse(req.query);
    const { lines, month, workspaceId } = await usageCsv(
      d,
      contextOf(req),
      query.workspaceId,
      query.month,
    );
    res
      .type('text/csv; charset=utf-8')
      .attachment(`usage-${workspaceId}-${month}.csv`)
      .set('x-content-type-options', 'nosniff');
    // Streamed: the ledger goes out a batch at a time (never the whole month in memory).
    await pipeline(Readable.from(lines), res);
  });
}
