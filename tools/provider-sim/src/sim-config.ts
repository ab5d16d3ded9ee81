import { z } from 'zod';

/** What a failure rule makes the simulator do instead of answering normally. */
export const failModes = [
  'invalid_key', // 401, OpenAI's invalid_api_key body
  'rate_limit', // 429 with Retry-After (seconds)
  'insufficient_quota', // 429 with code insufficient_quota (no Retry-After)
  'server_error', // 500
  'hang', // accept, never answer; recorded as aborted when the client gives up
  'truncated_stream', // send part of the answer, then destroy the socket
  'empty_image', // 200 with an images answer whose data item has neither b64_json nor url
] as const;
export type FailMode = (typeof failModes)[number];

const nonNegativeInt = z.number().int().nonnegative();

export const failRuleSchema = z
  .object({
    mode: z.enum(failModes),
    /** How many matching requests fail; omitted = every matching request until cleared. */
    count: z.number().int().positive().optional(),
    /** Only requests whose path starts with this (`/chat/completions` and `/v1/chat/completions` both work). */
    path: z.string().min(1).optional(),
    /** Only requests made with exactly this API key (lets parallel tests steer their own traffic). */
    apiKey: z.string().min(1).optional(),
    /** rate_limit: value of the Retry-After header, in seconds. */
    retryAfterSeconds: nonNegativeInt.optional(),
    /** truncated_stream: SSE events (stream) sent before the socket is destroyed. */
    afterChunks: nonNegativeInt.optional(),
    /** Overrides the error message of the OpenAI error body. */
    message: z.string().optional(),
  })
  .strict();
export type FailRule = z.infer<typeof failRuleSchema>;

export interface SimConfig {
  /** Delay before the response headers of every /v1 and /files request. */
  latencyMs: number;
  /** Chat: delay between the response headers and the first token (stream), or added before a JSON answer. */
  timeToFirstTokenMs: number;
  /** Chat: token pacing; 0 = as fast as the socket takes them. */
  tokensPerSecond: number;
  /** Chat stream: tokens per SSE chunk. */
  chunkSize: number;
  /** Chat: filler words appended to every answer so streams have many tokens. */
  fillerTokens: number;
  /** dall-e URLs stop working after this long (403, as an expired signed URL). */
  imageUrlTtlMs: number;
  /** Width and height of generated PNGs. */
  imageSizePx: number;
  /** Recorded requests kept (oldest dropped first). */
  maxRecordedRequests: number;
  /** Accepted API keys; null = the `validKeys` option given at start, else the default rule. */
  validKeys: string[] | null;
  /** Failure rules, checked in order; the first one that matches a request applies. */
  fail: FailRule[];
}

export const defaultSimConfig: Readonly<SimConfig> = Object.freeze({
  latencyMs: 0,
  timeToFirstTokenMs: 0,
  tokensPerSecond: 0,
  chunkSize: 1,
  fillerTokens: 30,
  imageUrlTtlMs: 60 * 60 * 1000,
  imageSizePx: 64,
  maxRecordedRequests: 1000,
  validKeys: null,
  fail: [],
});

/** A partial update as accepted by `control.set()` and `POST /__sim/config`. */
export const simConfigPatchSchema = z
  .object({
    latencyMs: nonNegativeInt,
    timeToFirstTokenMs: nonNegativeInt,
    tokensPerSecond: z.number().nonnegative(),
    chunkSize: z.number().int().positive(),
    fillerTokens: nonNegativeInt,
    imageUrlTtlMs: nonNegativeInt,
    imageSizePx: z.number().int().min(1).max(1024),
    maxRecordedRequests: z.number().int().positive(),
    validKeys: z.array(z.string()).nullable(),
    /** One rule, several, or null/[] to clear. Replaces the current rules. */
    fail: z.union([failRuleSchema, z.array(failRuleSchema), z.null()]),
  })
  .partial()
  .strict();
export type SimConfigPatch = z.input<typeof simConfigPatchSchema>;

/** Validates a patch; throws an Error that names every offending key. */
export function parseConfigPatch(input: unknown): Partial<SimConfig> {
  const result = simConfigPatchSchema.safeParse(input ?? {});
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid simulator config: ${problems.join('; ')}`);
  }
  const { fail, ...rest } = result.data;
  const patch: Partial<SimConfig> = { ...rest };
  if (fail !== undefined) patch.fail = fail === null ? [] : Array.isArray(fail) ? fail : [fail];
  return patch;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
