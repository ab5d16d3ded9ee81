import type { AuditAct, AuditSummary, TrustedContext } from '@aict/contracts';
import type { StoredPrice } from '../data/usage.repository';
import type { DomainDeps } from './domain-deps';
import { budgetLimit, priceOf, rateLimit, setPrice, userCapLimit } from './usage';
import { setBudget, setRateLimit, setUserCap } from './usage-report';

// The audit log (issue 17) of the usage settings: budgets, user caps, rate limits and
// prices. Each edit is done by usage.ts / usage-report.ts as before, then announced as an
// `audit.recorded` event (the auth service appends it to the log). These settings carry no
// outbox of their own: the event is published once the edit is stored, with the broker's
// confirm; a broker that is down costs the entry (logged), not the edit.

type Act = Pick<
  AuditAct,
  'action' | 'workspaceId' | 'targetType' | 'targetId' | 'before' | 'after'
>;

async function record(d: DomainDeps, ctx: TrustedContext, act: Act): Promise<void> {
  await d.bus
    .publish('audit.recorded', {
      actorId: ctx.uid,
      ...act,
      ...(ctx.ip ? { clientAddress: ctx.ip } : {}),
    } satisfies AuditAct)
    .catch((err: unknown) => {
      d.logger.warn({ err, action: act.action }, 'could not record an audit entry');
    });
}

/** A limit as stored now (not the few-seconds cache the generations read). */
const storedLimit = async (d: DomainDeps, id: string) =>
  (await d.usage.readLimitDoc<{ value: number | null }>(id))?.value ?? null;

export async function setBudgetAudited(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  value: number | null,
) {
  const before = await storedLimit(d, budgetLimit(workspaceId));
  const limits = await setBudget(d, ctx, workspaceId, value);
  if (before !== value) {
    await record(d, ctx, {
      action: 'usage.budget-changed',
      workspaceId,
      targetType: 'workspace',
      targetId: String(workspaceId),
      before: { monthlyBudgetMicros: before },
      after: { monthlyBudgetMicros: value },
    });
  }
  return limits;
}

export async function setUserCapAudited(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  userId: string,
  value: number | null,
) {
  const before = await storedLimit(d, userCapLimit(workspaceId, userId));
  const limits = await setUserCap(d, ctx, workspaceId, userId, value);
  if (before !== value) {
    await record(d, ctx, {
      action: 'usage.user-cap-changed',
      workspaceId,
      targetType: 'user',
      targetId: userId,
      before: { monthlyCapMicros: before },
      after: { monthlyCapMicros: value },
    });
  }
  return limits;
}

export async function setRateLimitAudited(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  value: number | null,
) {
  const before = await storedLimit(d, rateLimit(workspaceId));
  const limits = await setRateLimit(d, ctx, workspaceId, value);
  if (before !== value) {
    await record(d, ctx, {
      action: 'usage.rate-limit-changed',
      workspaceId,
      targetType: 'workspace',
      targetId: String(workspaceId),
      before: { requestsPerMinute: before },
      after: { requestsPerMinute: value },
    });
  }
  return limits;
}

/** A price as one flat summary: per million tokens, and one field per image size and quality. */
function priceSummary(price: StoredPrice): AuditSummary {
  return {
    inputPerMillion: price.inputPerMillion,
    outputPerMillion: price.outputPerMillion,
    ...Object.fromEntries(
      Object.entries(price.perImage)
        .slice(0, 25)
        .map(([size, micros]) => [`perImage ${size}`.slice(0, 64), micros]),
    ),
  };
}

/** The changed fields of two summaries (a field gone shows as null). */
function changed(before: AuditSummary, after: AuditSummary) {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => before[key] !== after[key],
  );
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(keys.map((key) => [key, after[key] ?? null])),
  };
}

/** The super admin's new price of a model (a platform act: no workspace). */
export async function setPriceAudited(
  d: DomainDeps,
  ctx: TrustedContext,
  model: string,
  price: StoredPrice,
) {
  const before = await priceOf(d, model);
  const saved = await setPrice(d, model, price);
  const diff = changed(priceSummary(before.price), priceSummary(saved.price));
  await record(d, ctx, {
    action: 'usage.price-changed',
    workspaceId: null,
    targetType: 'model',
    targetId: model,
    before: { version: before.version, ...diff.before },
    after: { version: saved.version, ...diff.after },
  });
  return saved;
}
