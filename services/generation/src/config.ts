import {
  orphanSweepEnv,
  baseServiceEnv,
  contextEnv,
  envInt,
  envPort,
  outboxEnv,
  providerUrlEnv,
} from '@aict/service-kit';
import type { z } from 'zod';

/** The generation service's environment, parsed once at start-up. */
export const configSchema = baseServiceEnv.extend({
  ...contextEnv.shape,
  ...outboxEnv.shape,
  PORT: envPort.default(4105),
  /** One provider call (until its answer, or between two streamed chunks) may take this long. */
  PROVIDER_TIMEOUT_MS: envInt({ min: 100, max: 600_000 }).default(60_000),
  /**
   * One whole provider call — retries, waits and a streamed answer included — ends here as a
   * timeout (its socket closed), even while the provider keeps trickling chunks.
   */
  PROVIDER_DEADLINE_MS: envInt({ min: 100, max: 1_800_000 }).default(120_000),
  /** Retries of a rate-limited (429) or failing (5xx) provider call, after the first attempt. */
  PROVIDER_MAX_RETRIES: envInt({ min: 0, max: 10 }).default(2),
  /** A Retry-After longer than this is not waited for: the call fails as rate limited at once. */
  PROVIDER_MAX_RETRY_WAIT_MS: envInt({ min: 0, max: 120_000 }).default(10_000),
  /**
   * PROVIDER_URL_ALLOWED_ORIGINS: the only private origins a product-entered provider base
   * URL may reach (the local run's simulator); empty in production. The operator's own
   * OPENAI_BASE_URL (source `environment`) is always trusted.
   */
  ...providerUrlEnv.shape,
  /** How long the fast hand-over (`content.store`) is waited for; the outbox delivers anyway. */
  CONTENT_STORE_TIMEOUT_MS: envInt({ min: 100, max: 60_000 }).default(3_000),
  /** Reading the text of one attached document (PDF, DOC, DOCX) may take this long. */
  EXTRACT_TIMEOUT_MS: envInt({ min: 100, max: 120_000 }).default(10_000),
  /** Characters of an attached document's text sent to the model (the rest is cut). */
  EXTRACT_MAX_CHARS: envInt({ min: 1_000, max: 2_000_000 }).default(100_000),
  /**
   * Memory (RSS) of the child process that reads one document, in MB: it is killed past this
   * (two read at once, so the service plus its readers stay under 400 MB, 600 MB with four).
   */
  EXTRACT_MAX_MEMORY_MB: envInt({ min: 64, max: 4_096 }).default(128),
  /** Streamed text is sent to the browser in pieces at most this often. */
  STREAM_FLUSH_MS: envInt({ min: 0, max: 1_000 }).default(40),
  /** How long a workspace's provider configuration is kept (cleared on settings.changed). */
  PROVIDER_CONFIG_TTL_MS: envInt({ min: 0, max: 300_000 }).default(5_000),
  /**
   * How long a prompt is kept for generations (ms). Every prompt event clears the cache; this
   * bounds staleness when one is missed (e.g. while reconnecting).
   */
  PROMPT_CACHE_TTL_MS: envInt({ min: 0, max: 300_000 }).default(30_000),
  /** Largest generated image accepted from the provider, in bytes. */
  IMAGE_MAX_BYTES: envInt({ min: 1024, max: 100 * 1024 * 1024 }).default(25 * 1024 * 1024),
  /**
   * Generations of one workspace running at once in this replica (the cap is per replica);
   * more wait in a short queue, and past that they are refused with 429 and Retry-After.
   */
  GENERATION_MAX_CONCURRENT_PER_WORKSPACE: envInt({ min: 1, max: 1_000 }).default(4),
  /**
   * Optional: places of this replica shared equally among the workspaces generating at once:
   * with n workspaces busy, each runs at most max(1, floor(places / n)) (and at most the cap
   * above). Unset: each workspace has the cap above. It also caps the replica's throughput
   * while few workspaces are busy (5 busy workspaces of 8 places run 1 each).
   */
  GENERATION_SHARED_PLACES: envInt({ min: 1, max: 10_000 }).optional(),
  /** Generations of one workspace waiting for a free place (per replica). */
  GENERATION_MAX_QUEUED_PER_WORKSPACE: envInt({ min: 0, max: 10_000 }).default(16),
  /**
   * The least Retry-After (seconds) of a generation refused because its workspace is busy. A
   * flood is told to come back later, spread over up to the maximum below, at the pace the
   * workspace's places free up (keyed-slots.ts).
   */
  GENERATION_BUSY_RETRY_AFTER_SECONDS: envInt({ min: 1, max: 600 }).default(5),
  GENERATION_BUSY_RETRY_AFTER_MAX_SECONDS: envInt({ min: 1, max: 3_600 }).default(60),
  /**
   * A workspace that floods (some of its generations were refused and are not due back yet)
   * runs at most this percentage of its places (at least one) while other workspaces are
   * generating, so that its flood does not slow their work. 100: no such limit.
   */
  GENERATION_FLOOD_SHARE_PERCENT: envInt({ min: 1, max: 100 }).default(50),
  /** Tokens a text call is assumed to use when its cost is reserved on the budget beforehand. */
  USAGE_ESTIMATE_INPUT_TOKENS: envInt({ min: 0, max: 10_000_000 }).default(2_000),
  USAGE_ESTIMATE_OUTPUT_TOKENS: envInt({ min: 0, max: 10_000_000 }).default(1_000),
  /**
   * How long usage limits and prices are kept in a replica (ms): its own edits apply at once,
   * another replica's within this time (a budget set there is enforced here that much later).
   */
  USAGE_CACHE_MS: envInt({ min: 0, max: 600_000 }).default(5_000),
  /**
   * Past their time to live, a cached prompt, provider configuration, usage limit or price is
   * still used for up to this long while one read in the background replaces it, so a warm
   * generation never waits for a read (lib/ttl-cache.ts). Staleness is then its time to live
   * plus one read; this long only while those reads fail. 0: wait for the read.
   */
  CACHE_STALE_MS: envInt({ min: 0, max: 600_000 }).default(60_000),
  /** A second request with the same Idempotency-Key waits this long for the first one. */
  IDEMPOTENCY_WAIT_MS: envInt({ min: 0, max: 600_000 }).default(30_000),
  /** ORPHAN_SWEEP_*: objects no record points to (an outage between object and record) go. */
  ...orphanSweepEnv.shape,
});

export type Config = z.output<typeof configSchema>;
