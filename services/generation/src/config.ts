import { baseServiceEnv, contextEnv, envBool, envInt, envPort } from '@aict/service-kit';
import type { z } from 'zod';

/** The generation service's environment, parsed once at start-up. */
export const configSchema = baseServiceEnv.extend({
  ...contextEnv.shape,
  PORT: envPort.default(4105),
  /** One provider call (until its answer, or between two streamed chunks) may take this long. */
  PROVIDER_TIMEOUT_MS: envInt({ min: 100, max: 600_000 }).default(60_000),
  /** Retries of a rate-limited (429) or failing (5xx) provider call, after the first attempt. */
  PROVIDER_MAX_RETRIES: envInt({ min: 0, max: 10 }).default(2),
  /** A Retry-After longer than this is not waited for: the call fails as rate limited at once. */
  PROVIDER_MAX_RETRY_WAIT_MS: envInt({ min: 0, max: 120_000 }).default(10_000),
  /**
   * Accept provider base URLs (settings) that resolve to private, loopback or link-local
   * addresses. Off in production; on for the local run and tests. The operator's own
   * OPENAI_BASE_URL (source `environment`) is always trusted.
   */
  ALLOW_PRIVATE_PROVIDER_URLS: envBool.default(false),
  /** How long the fast hand-over (`content.store`) is waited for; the outbox delivers anyway. */
  CONTENT_STORE_TIMEOUT_MS: envInt({ min: 100, max: 60_000 }).default(3_000),
  /** Reading the text of one attached document (PDF, DOC, DOCX) may take this long. */
  EXTRACT_TIMEOUT_MS: envInt({ min: 100, max: 120_000 }).default(10_000),
  /** Characters of an attached document's text sent to the model (the rest is cut). */
  EXTRACT_MAX_CHARS: envInt({ min: 1_000, max: 2_000_000 }).default(100_000),
  /** Memory of the worker that reads one document, in MB (a zip bomb stops there). */
  EXTRACT_MAX_MEMORY_MB: envInt({ min: 32, max: 4_096 }).default(256),
  /** Streamed text is sent to the browser in pieces at most this often. */
  STREAM_FLUSH_MS: envInt({ min: 0, max: 1_000 }).default(40),
  /** How long a workspace's provider configuration is kept (cleared on settings.changed). */
  PROVIDER_CONFIG_TTL_MS: envInt({ min: 0, max: 300_000 }).default(5_000),
  /** Largest generated image accepted from the provider, in bytes. */
  IMAGE_MAX_BYTES: envInt({ min: 1024, max: 100 * 1024 * 1024 }).default(25 * 1024 * 1024),
  /** A second request with the same Idempotency-Key waits this long for the first one. */
  IDEMPOTENCY_WAIT_MS: envInt({ min: 0, max: 600_000 }).default(30_000),
});

export type Config = z.output<typeof configSchema>;
