import { envInt, envPort, envString, envUrl, httpEnv } from '@aict/service-kit';
import type { z } from 'zod';

const serviceUrl = envUrl(['http', 'https']);

/** The gateway's environment, parsed once at start-up. */
export const configSchema = httpEnv.extend({
  PORT: envPort.default(8080),
  /** Folder holding `shell/dist` and `<remote>/dist` (the built front-ends). */
  STATIC_DIR: envString,
  AUTH_SERVICE_URL: serviceUrl,
  WORKSPACE_SERVICE_URL: serviceUrl,
  PROMPT_SERVICE_URL: serviceUrl,
  CONTENT_SERVICE_URL: serviceUrl,
  GENERATION_SERVICE_URL: serviceUrl,
  /** How long a service may take to answer (generation streams get their own, longer, limit). */
  UPSTREAM_TIMEOUT_MS: envInt({ min: 1000, max: 600_000 }).default(120_000),
});

export type Config = z.output<typeof configSchema>;
