import { baseServiceEnv, contextEnv, envBucket, envInt, envPort } from '@aict/service-kit';
import type { z } from 'zod';
import { PAGE_SIZE } from './data/layout';

/** The content service's environment, parsed once at start-up. */
export const configSchema = baseServiceEnv.extend({
  ...contextEnv.shape,
  PORT: envPort.default(4104),
  /** Items per history page document (tests use small pages). */
  HISTORY_PAGE_SIZE: envInt({ min: 2, max: 1000 }).default(PAGE_SIZE),
  /** Memory the search keeps for page documents it has read (MB); bounds the RSS. */
  SEARCH_CACHE_MB: envInt({ min: 0, max: 1024 }).default(16),
  /** Pause between passes of the repair of derived documents (pending writes). */
  REPAIR_INTERVAL_MS: envInt({ min: 100, max: 600_000 }).default(5000),
  /** A pending write younger than this is left to its writer (it may still be running). */
  REPAIR_MIN_AGE_MS: envInt({ min: 0, max: 600_000 }).default(2000),
  /** The generation service's bucket: the workspace export reads the generated images there. */
  GENERATION_BUCKET: envBucket.default('aict-generation'),
  /** How long GET /api/stats waits for the prompt service's count. */
  PROMPT_COUNT_TIMEOUT_MS: envInt({ min: 100, max: 60_000 }).default(3000),
  /** How long GET /api/prompts/:id/results waits for the prompt service's answer. */
  PROMPT_RESULTS_TIMEOUT_MS: envInt({ min: 100, max: 60_000 }).default(3000),
});

export type Config = z.output<typeof configSchema>;
