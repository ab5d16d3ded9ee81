import { DEFAULT_TEXT_MODEL, USAGE_CURRENCY, type TrustedContext } from '@aict/contracts';
import type { UsageEntry, UsageKind, UsageOutcome } from '../data/usage.model';
import type { StoredPrice } from '../data/usage.repository';
import type { DomainDeps } from './domain-deps';
import { codeError } from './generation.errors';
import { settleIntoTallies } from './usage-tally';

/** The service's clock (tests move it across a month boundary). */
export interface Clock {
  now(): Date;
}

/** `YYYY-MM` of a date in UTC. */
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The size the service asks images in (provider-client) and the quality each model makes. */
export const IMAGE_SIZE = '1024x1024';
export const imageQualityOf = (model: string) => (model === 'dall-e-3' ? 'standard' : 'auto');

/**
 * Built-in prices (version 0) of SPEC §9's models, in micro-USD: per million tokens, per
 * image by `size:quality`. gpt-image-1's images are priced per image (its token usage is the
 * image itself), its text input per token.
 */
export const DEFAULT_PRICES: Record<string, StoredPrice> = {
  'gpt-4o': { inputPerMillion: 2_500_000, outputPerMillion: 10_000_000, perImage: {} },
  'gpt-4-turbo': { inputPerMillion: 10_000_000, outputPerMillion: 30_000_000, perImage: {} },
  'gpt-3.5-turbo': { inputPerMillion: 500_000, outputPerMillion: 1_500_000, perImage: {} },
  'dall-e-3': {
    inputPerMillion: 0,
    outputPerMillion: 0,
    perImage: {
      '1024x1024:standard': 40_000,
      '1024x1024:hd': 80_000,
      '1024x1792:standard': 80_000,
      '1792x1024:standard': 80_000,
      '1024x1792:hd': 120_000,
      '1792x1024:hd': 120_000,
    },
  },
  'gpt-image-1': {
    inputPerMillion: 5_000_000,
    outputPerMillion: 0,
    perImage: {
      '1024x1024:low': 11_000,
      '1024x1024:medium': 42_000,
      '1024x1024:high': 167_000,
      '1024x1024:auto': 42_000,
    },
  },
};

const ZERO_PRICE: StoredPrice = { inputPerMillion: 0, outputPerMillion: 0, perImage: {} };

export const priceChain = (model: string) => `price:${model}`;
export const workspaceCounter = (workspaceId: number, month: string) =>
  `spent:ws:${workspaceId}:${month}`;
export const userCounter = (workspaceId: number, userId: string, month: string) =>
  `spent:user:${workspaceId}:${userId}:${month}`;
export const budgetLimit = (workspaceId: number) => `budget:${workspaceId}`;
export const rateLimit = (workspaceId: number) => `rate:${workspaceId}`;
export const userCapLimit = (workspaceId: number, userId: string) => `cap:${workspaceId}:${userId}`;

export interface PriceAt {
  model: string;
  version: number;
  price: StoredPrice;
}

/** The model's current price: the latest version of its chain, else the default (version 0). */
export async function priceOf(d: DomainDeps, model: string): Promise<PriceAt> {
  const current = await d.usageRuntime.prices.get(model, async () => {
    const latest = await d.usage.prices.latest(priceChain(model));
    if (latest) return { version: latest.n, price: latest.value };
    return { version: 0, price: DEFAULT_PRICES[model] ?? ZERO_PRICE };
  });
  return { model, ...current };
}

/** A new price version (the super admin's edit); calls made before keep theirs. */
export async function setPrice(d: DomainDeps, model: string, price: StoredPrice) {
  const chain = priceChain(model);
  try {
    return await d.locks.run(`usage:${chain}`, async () => {
      for (;;) {
        const latest = await d.usage.prices.latest(chain);
        const n = (latest?.n ?? 0) + 1;
        if (await d.usage.prices.append(chain, n, price)) return { model, version: n, price };
      }
    });
  } finally {
    d.usageRuntime.prices.drop(model);
  }
}

/** The default models and every model whose price was edited, with their current prices. */
export async function listPrices(d: DomainDeps): Promise<PriceAt[]> {
  return Promise.all(Object.keys(DEFAULT_PRICES).map((model) => priceOf(d, model)));
}

export function imagePrice(price: StoredPrice, size: string, quality: string): number {
  return price.perImage[`${size}:${quality}`] ?? 0;
}

/** Integer micro-units, rounded once per call. */
export function costOf(
  price: StoredPrice,
  usage: { inputTokens: number; outputTokens: number; images: UsageEntry['images'] },
): number {
  const tokens =
    (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) /
    1_000_000;
  const images = usage.images
    ? usage.images.count * imagePrice(price, usage.images.size, usage.images.quality)
    : 0;
  return Math.round(tokens) + images;
}

/**
 * Adds `delta` to a month counter, refused (false) when `limit` is set and the counter has
 * reached it. Exact under concurrency: the counter is a chain (an insert per change); the
 * changes that meet in one process are written as one version (usage-runtime.ts), other
 * replicas lose the insert race and decide again.
 */
const addSpent = (d: DomainDeps, chain: string, delta: number, limit: number | null) =>
  d.usageRuntime.spent.add(chain, delta, limit);

/** What a counter holds now (by `_id`). */
export async function spentOn(d: DomainDeps, chain: string): Promise<number> {
  return (await d.usage.counters.latest(chain))?.value.spent ?? 0;
}

/** 429 with Retry-After when the user has had the workspace's generations for this minute. */
async function takeRateSlot(d: DomainDeps, workspaceId: number, userId: string, now: Date) {
  const perMinute = await d.usage.readLimit(rateLimit(workspaceId));
  if (perMinute === null) return;
  const minute = Math.floor(now.getTime() / 60_000);
  const prefix = `rate:${workspaceId}:${userId}:`;
  // Insert-only: the k-th generation of a minute takes slot k, exactly once.
  for (let k = 1; k <= perMinute; k++) {
    if (await d.usage.takeSlot(`${prefix}${minute}:${k}`, now)) {
      void d.usage.dropSlot(`${prefix}${minute - 1}:${k}`).catch(() => undefined);
      return;
    }
  }
  const retryAfter = Math.max(1, Math.ceil(((minute + 1) * 60_000 - now.getTime()) / 1000));
  throw codeError('GENERATION.RATE_LIMITED', undefined, { 'retry-after': String(retryAfter) });
}

/** What a provider call used, as the generation reports it. */
export interface CallUsage {
  kind?: UsageKind;
  inputTokens: number;
  outputTokens: number;
  images: UsageEntry['images'];
  stopped?: boolean;
}

export interface MeterInfo {
  model: string;
  kind: UsageKind;
  promptId: string | null;
}

export interface Meter {
  id: string;
  /**
   * True when a budget or a cap was checked: the call then settles before its answer goes out,
   * so that the next call is decided on its real cost. Otherwise it may settle afterwards.
   */
  guarded: boolean;
  /** Records what the call used (or that it failed) and moves the counters to its cost. */
  settle(usage: CallUsage | null): Promise<void>;
  /**
   * What the call costs for this usage, at the price its ledger entry records: the figure the
   * settle writes, known before it (the generation's content carries it).
   */
  costOf(usage: CallUsage): number;
}

/** The estimate reserved before a call: an image's price, or the configured tokens. */
function estimateOf(d: DomainDeps, price: StoredPrice, info: MeterInfo): number {
  if (info.kind === 'image' || info.kind === 'image-edit') {
    return imagePrice(price, IMAGE_SIZE, imageQualityOf(info.model));
  }
  return costOf(price, {
    inputTokens: d.config.USAGE_ESTIMATE_INPUT_TOKENS,
    outputTokens: d.config.USAGE_ESTIMATE_OUTPUT_TOKENS,
    images: null,
  });
}

/** The ledger entry of this call: new, or the one a crashed run of the same call left. */
async function claimEntry(d: DomainDeps, entry: UsageEntry): Promise<UsageEntry> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const candidate = attempt === 1 ? entry : { ...entry, _id: `${entry._id}#${attempt}` };
    if (await d.usage.insertEntry(candidate)) return candidate;
    const existing = await d.usage.findEntry(candidate._id);
    // Started and never settled: its run died mid-call; this run takes it over.
    if (existing && existing.outcome === 'started') return existing;
    // Settled: a finished call whose request failed later (its key was freed); this is another.
  }
  throw new Error(`usage entry ${entry._id}: too many attempts`);
}

/** The cost of what a call used, at the price its entry recorded. */
function costOfEntry(
  entry: UsageEntry,
  used: Pick<UsageEntry, 'inputTokens' | 'outputTokens' | 'images'>,
) {
  return costOf(
    {
      inputPerMillion: entry.price.inputPerMillion,
      outputPerMillion: entry.price.outputPerMillion,
      perImage: used.images
        ? { [`${used.images.size}:${used.images.quality}`]: entry.price.perImage }
        : {},
    },
    used,
  );
}

const usedOf = (usage: CallUsage | null) => ({
  inputTokens: usage?.inputTokens ?? 0,
  outputTokens: usage?.outputTokens ?? 0,
  images: usage?.images ?? null,
});

/** What a settled call's entry holds: the usage, its outcome and cost. */
function settledFields(entry: UsageEntry, usage: CallUsage | null, finishedAt: Date) {
  const used = usedOf(usage);
  return {
    ...used,
    ...(usage?.kind ? { kind: usage.kind } : {}),
    outcome: (!usage ? 'error' : usage.stopped ? 'stopped' : 'ok') as UsageOutcome,
    finishedAt,
    durationMs: finishedAt.getTime() - entry.startedAt.getTime(),
    costMicros: costOfEntry(entry, used),
    settled: true,
  };
}

const countersOf = (entry: UsageEntry) => [
  userCounter(entry.workspaceId, entry.userId, entry.month),
  workspaceCounter(entry.workspaceId, entry.month),
];

/**
 * Settles an entry: the entry first, with the month tallies (a crash before the counters move
 * under-counts by the difference, never twice: a settled entry is not taken over), then the
 * counters move from what was reserved to the cost.
 */
async function settleEntry(d: DomainDeps, entry: UsageEntry, usage: CallUsage | null) {
  const settled = settledFields(entry, usage, d.clock.now());
  await settleIntoTallies(d, entry, settled);
  const delta = settled.costMicros - (entry.reserved ? entry.estimateMicros : 0);
  if (delta !== 0)
    await Promise.all(countersOf(entry).map((chain) => addSpent(d, chain, delta, null)));
}

/**
 * Before a provider call: the rate limit (429), then the user's cap and the workspace's
 * monthly budget (402, refused once the counter has reached it), then the call's estimate is
 * reserved on both month counters and its ledger entry written (`started`). The overshoot is
 * at most the calls already running. `settle` puts the real cost in place of the estimate.
 */
export async function startMeter(
  d: DomainDeps,
  ctx: TrustedContext,
  workspaceId: number,
  callId: string,
  info: MeterInfo,
): Promise<Meter> {
  const userId = ctx.uid!;
  const now = d.clock.now();
  await takeRateSlot(d, workspaceId, userId, now);
  const month = monthOf(now);
  const [cap, budget, price] = await Promise.all([
    d.usage.readLimit(userCapLimit(workspaceId, userId)),
    d.usage.readLimit(budgetLimit(workspaceId)),
    priceOf(d, info.model || DEFAULT_TEXT_MODEL),
  ]);
  const guarded = cap !== null || budget !== null;
  const entry: UsageEntry = {
    _id: callId,
    workspaceId,
    userId,
    promptId: info.promptId,
    model: info.model,
    kind: info.kind,
    month,
    day: dayOf(now),
    startedAt: now,
    finishedAt: null,
    durationMs: null,
    outcome: 'started',
    inputTokens: 0,
    outputTokens: 0,
    images: null,
    priceVersion: price.version,
    price: {
      inputPerMillion: price.price.inputPerMillion,
      outputPerMillion: price.price.outputPerMillion,
      perImage: imagePrice(price.price, IMAGE_SIZE, imageQualityOf(info.model)),
    },
    currency: USAGE_CURRENCY,
    estimateMicros: estimateOf(d, price.price, info),
    costMicros: 0,
    reserved: false,
    settled: false,
  };

  if (!guarded) {
    // Nothing to refuse: nothing is read, and nothing waited for, before the call. Its ledger
    // entry (`started`) is written meanwhile, so that a process dying mid-call leaves the call
    // in the ledger; the settle completes it with the real cost and moves the counters.
    const started = claimEntry(d, entry);
    started.catch(() => undefined); // the settle sees the failure and writes the entry itself
    return {
      id: callId,
      guarded,
      async settle(usage) {
        const claimed = await started.catch(() => claimEntry(d, entry));
        await settleEntry(d, claimed, usage);
      },
      // At this call's price (an entry a crashed run left was priced alike, but for a price
      // edited in between).
      costOf: (usage) => costOfEntry(entry, usedOf(usage)),
    };
  }

  // A quick refusal that writes nothing (the reservation below checks again, exactly).
  const [userSpent, workspaceSpent] = await Promise.all([
    cap === null ? 0 : spentOn(d, userCounter(workspaceId, userId, month)),
    budget === null ? 0 : spentOn(d, workspaceCounter(workspaceId, month)),
  ]);
  if (budget !== null && workspaceSpent >= budget) throw codeError('GENERATION.BUDGET_REACHED');
  if (cap !== null && userSpent >= cap) throw codeError('GENERATION.USER_CAP_REACHED');
  const claimed = await claimEntry(d, entry);
  const [userChain, workspaceChain] = countersOf(claimed) as [string, string];

  if (!claimed.reserved) {
    if (!(await addSpent(d, userChain, claimed.estimateMicros, cap))) {
      await d.usage.deleteEntry(claimed._id);
      throw codeError('GENERATION.USER_CAP_REACHED');
    }
    if (!(await addSpent(d, workspaceChain, claimed.estimateMicros, budget))) {
      await addSpent(d, userChain, -claimed.estimateMicros, null);
      await d.usage.deleteEntry(claimed._id);
      throw codeError('GENERATION.BUDGET_REACHED');
    }
    await d.usage.updateEntry(claimed._id, { reserved: true });
  }

  return {
    id: claimed._id,
    guarded,
    settle: (usage) => settleEntry(d, { ...claimed, reserved: true }, usage),
    costOf: (usage) => costOfEntry(claimed, usedOf(usage)),
  };
}
