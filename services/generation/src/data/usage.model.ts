import { Schema, type Connection, type Model } from 'mongoose';
import { chainSchema } from '@aict/service-kit';

/** What a provider call was. */
export type UsageKind = 'chat' | 'text' | 'reply' | 'image' | 'image-edit';
/**
 * How it ended: `started` until it is settled (a call whose service died stays `started`,
 * counted at its estimate); `ok`, `stopped` (the client left: the tokens so far) or `error`.
 */
export type UsageOutcome = 'started' | 'ok' | 'stopped' | 'error';

/**
 * One provider call in the ledger. `_id` is the call's id (the generation's content id, which
 * an Idempotency-Key fixes): written once by insert, so a re-run of the same call finds it
 * instead of counting it again.
 */
export interface UsageEntry {
  _id: string;
  workspaceId: number;
  userId: string;
  promptId: string | null;
  model: string;
  kind: UsageKind;
  /** `YYYY-MM` and `YYYY-MM-DD` in UTC, from the service's clock when the call started. */
  month: string;
  day: string;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  outcome: UsageOutcome;
  inputTokens: number;
  outputTokens: number;
  images: { count: number; size: string; quality: string } | null;
  /** The price the call was made at (its version and units), so a later edit changes nothing. */
  priceVersion: number;
  price: { inputPerMillion: number; outputPerMillion: number; perImage: number };
  currency: string;
  /** Reserved on the month counters before the call. */
  estimateMicros: number;
  costMicros: number;
  /** The estimate is on the counters (a re-run after a crash does not reserve it again). */
  reserved: boolean;
  /** The counters hold the cost instead of the estimate. */
  settled: boolean;
  /**
   * The tally slot this entry took (or is about to take) per tally scope, once settled
   * (domain/usage-tally.ts): a re-run checks the slot instead of counting the entry again.
   */
  tally?: { workspace?: number; user?: number };
}

const ledgerSchema = new Schema<UsageEntry>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: Number, required: true },
    userId: { type: String, required: true },
    promptId: { type: String, default: null },
    model: { type: String, required: true },
    kind: { type: String, required: true },
    month: { type: String, required: true },
    day: { type: String, required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    durationMs: { type: Number, default: null },
    outcome: { type: String, required: true },
    inputTokens: { type: Number, default: 0 },
    outputTokens: { type: Number, default: 0 },
    images: { type: Schema.Types.Mixed, default: null },
    priceVersion: { type: Number, required: true },
    price: { type: Schema.Types.Mixed, required: true },
    currency: { type: String, required: true },
    estimateMicros: { type: Number, required: true },
    costMicros: { type: Number, default: 0 },
    reserved: { type: Boolean, default: false },
    settled: { type: Boolean, default: false },
    tally: { type: Schema.Types.Mixed, default: undefined },
  },
  { collection: 'usage_ledger', versionKey: false, minimize: false },
);
ledgerSchema.index({ workspaceId: 1, month: 1 });

export const usageLedgerModel = (db: Connection): Model<UsageEntry> =>
  (db.models.UsageEntry as Model<UsageEntry>) ?? db.model<UsageEntry>('UsageEntry', ledgerSchema);

/**
 * The chains of the usage collection: month counters (`spent:ws:<ws>:<month>`,
 * `spent:user:<ws>:<user>:<month>`) and prices (`price:<model>`).
 */
export const usageChainModel = (db: Connection): Model<unknown> =>
  (db.models.UsageChain as Model<unknown>) ?? db.model('UsageChain', chainSchema(), 'usage_chains');

/**
 * Limits, one document per setting so that two admins editing different settings never
 * overwrite each other: `budget:<ws>`, `rate:<ws>`, `cap:<ws>:<user>`, and the workspace's
 * list of capped users `caps:<ws>` (a hint for the limits screen).
 */
export interface UsageLimitDoc {
  _id: string;
  value: number | null;
  at: Date;
}

const limitSchema = new Schema<UsageLimitDoc>(
  {
    _id: { type: String, required: true },
    value: { type: Number, default: null },
    at: { type: Date, required: true },
  },
  { collection: 'usage_limits', versionKey: false, strict: false },
);

export const usageLimitModel = (db: Connection): Model<UsageLimitDoc> =>
  (db.models.UsageLimit as Model<UsageLimitDoc>) ??
  db.model<UsageLimitDoc>('UsageLimit', limitSchema);

/** One generation's place in a user's minute: `rate:<ws>:<user>:<minute>:<k>` (insert-only). */
export interface RateSlotDoc {
  _id: string;
  at: Date;
}

const rateSlotSchema = new Schema<RateSlotDoc>(
  { _id: { type: String, required: true }, at: { type: Date, required: true } },
  { collection: 'usage_rate_slots', versionKey: false },
);

export const rateSlotModel = (db: Connection): Model<RateSlotDoc> =>
  (db.models.UsageRateSlot as Model<RateSlotDoc>) ??
  db.model<RateSlotDoc>('UsageRateSlot', rateSlotSchema);

/**
 * One settled entry's place in a month tally: `tally:<scope>:<k>` (k = 1, 2, … without gaps,
 * insert-only), with what the tally adds up. The tally's chain (`tally:<scope>` in
 * usage_chains) holds the sums of slots 1..upTo.
 */
export interface TallySlotDoc {
  _id: string;
  entryId: string;
  day: string;
  userId: string;
  model: string;
  promptId: string | null;
  costMicros: number;
  at: Date;
}

const tallySlotSchema = new Schema<TallySlotDoc>(
  {
    _id: { type: String, required: true },
    entryId: { type: String, required: true },
    day: { type: String, required: true },
    userId: { type: String, required: true },
    model: { type: String, required: true },
    promptId: { type: String, default: null },
    costMicros: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'usage_tally_slots', versionKey: false },
);

export const tallySlotModel = (db: Connection): Model<TallySlotDoc> =>
  (db.models.UsageTallySlot as Model<TallySlotDoc>) ??
  db.model<TallySlotDoc>('UsageTallySlot', tallySlotSchema);
