import { MAX_IMAGE_PIXELS } from '@aict/contracts';
import {
  baseServiceEnv,
  contextEnv,
  envInt,
  envPort,
  orphanSweepEnv,
  outboxEnv,
} from '@aict/service-kit';
import type { z } from 'zod';

/** The prompt service's environment, parsed once at start-up. */
export const configSchema = baseServiceEnv.extend({
  ...contextEnv.shape,
  ...outboxEnv.shape,
  PORT: envPort.default(4103),
  /** Largest accepted reference image upload, in bytes (default 10 MB). */
  REFERENCE_IMAGE_MAX_BYTES: envInt({ min: 1024, max: 50 * 1024 * 1024 }).default(10 * 1024 * 1024),
  /** Largest accepted reference image, in pixels (width × height); bounds decoding memory. */
  REFERENCE_IMAGE_MAX_PIXELS: envInt({ min: 1, max: 100_000_000 }).default(MAX_IMAGE_PIXELS),
  /** Prompts a workspace may hold: bounds its summary document (the list route reads it). */
  MAX_PROMPTS_PER_WORKSPACE: envInt({ min: 1, max: 1000 }).default(500),
  /** Public prompts over all workspaces: bounds the public summary document. */
  MAX_PUBLIC_PROMPTS: envInt({ min: 1, max: 1000 }).default(500),
  /** ORPHAN_SWEEP_*: objects no record points to (an outage between object and record) go. */
  ...orphanSweepEnv.shape,
});

export type Config = z.output<typeof configSchema>;
