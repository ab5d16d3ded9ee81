import { z } from 'zod';

/**
 * Configuration comes from the environment, parsed once at start-up by a zod schema.
 * A missing or wrong value stops the service with ONE message naming every
 * offending key, and never its value (values may be secrets).
 *
 *     export const configSchema = baseServiceEnv.extend({ PORT: envPort.default(4103) });
 *     export type Config = z.output<typeof configSchema>;
 *     const config = loadConfig(configSchema);
 */

export class ConfigError extends Error {
  /** One entry per offending key, e.g. `MONGO_URL is required`. */
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Parses `env` with `schema` and returns the typed, frozen result. Empty variables
 * (`PORT=`) count as unset, so defaults apply and required keys are reported missing.
 * Throws a `ConfigError` naming every missing or wrong key.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
): Readonly<z.output<S>> {
  const input: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') input[key] = value;
  }
  const result = schema.safeParse(input);
  if (!result.success) throw new ConfigError(describeIssues(result.error.issues, input));
  return Object.freeze(result.data);
}

function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  input: Record<string, string>,
): string[] {
  const byKey = new Map<string, string>();
  for (const issue of issues) {
    const key = issue.path.map(String).join('.');
    if (byKey.has(key)) continue;
    byKey.set(key, describeIssue(key, issue, input));
  }
  return [...byKey.values()];
}

function describeIssue(
  key: string,
  issue: z.core.$ZodIssue,
  input: Record<string, string>,
): string {
  if (!key) return issue.message;
  const top = issue.path[0];
  if (typeof top === 'string' && input[top] === undefined && issue.path.length === 1)
    return `${key} is required`;
  if (issue.code === 'invalid_type' && issue.expected === 'number')
    return `${key} must be a number`;
  if (issue.code === 'invalid_value' && issue.values.length > 0)
    return `${key} must be one of ${issue.values.map(String).join(', ')}`;
  // Our own pieces word their messages to read after the key ("must be a URL").
  if (/^(must|is|should) /.test(issue.message)) return `${key} ${issue.message}`;
  return `${key}: ${issue.message}`;
}

// ---------------------------------------------------------------------------
// Reusable pieces. Messages read after the key: "PORT must be a whole number".

/** A non-empty string (surrounding spaces trimmed). */
export const envString = z.string().trim().min(1, 'must not be blank');

/** A PEM-encoded key (private or public); `\n` escapes are turned into line breaks. */
export const envPem = z
  .string()
  .transform((v) => v.replace(/\\n/g, '\n').trim())
  .refine(
    (v) => /^-----BEGIN [A-Z ]*KEY-----[\s\S]+-----END [A-Z ]*KEY-----$/.test(v),
    'must be a PEM key',
  );

/** What every service that takes requests from the gateway needs to check them. */
export const contextEnv = z.object({ CONTEXT_PUBLIC_KEY: envPem });

/** A whole number given as text, optionally bounded. */
export function envInt(bounds: { min?: number; max?: number } = {}) {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = bounds;
  return z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'must be a number')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

/** A TCP port (0 lets the system choose one, useful in tests). */
export const envPort = envInt({ min: 0, max: 65535 });

/** `true`/`false` (also `1`/`0`, `yes`/`no`). */
export const envBool = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), 'must be true or false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A URL whose scheme is one of `protocols` (without the colon, e.g. `['http', 'https']`). */
export function envUrl(protocols: string[]) {
  const wanted = protocols.map((p) => `${p}:`);
  return z
    .string()
    .trim()
    .refine(
      (v) => {
        try {
          return wanted.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    );
}

/** A comma-separated list (`a, b,c` → `['a','b','c']`), empty items dropped. */
export const envList = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export const nodeEnv = z.enum(['development', 'test', 'production']).default('development');
export const logLevel = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  .default('info');

/**
 * A MongoDB URL that names the service's own database (`mongodb://host:27017/aict_auth`,
 * `mongodb://a:27017,b:27017/aict_auth?replicaSet=rs0`, `mongodb+srv://…/aict_auth`).
 */
export const envMongoUrl = z
  .string()
  .trim()
  .regex(/^mongodb(\+srv)?:\/\/[^/?#]+/, 'must be a URL starting with mongodb:// or mongodb+srv://')
  .regex(
    /^mongodb(\+srv)?:\/\/[^/?#]+\/[^/?#]+/,
    'must name the database (mongodb://host:27017/<database>)',
  );

/** An S3 bucket name: 3–63 lowercase letters, digits, dots or hyphens. */
export const envBucket = z
  .string()
  .trim()
  .regex(
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
    'must be a bucket name (3-63 lowercase letters, digits, dots or hyphens)',
  );

/** What every HTTP process (services and gateway) reads. */
export const httpEnv = z.object({
  NODE_ENV: nodeEnv,
  LOG_LEVEL: logLevel,
  HOST: envString.default('127.0.0.1'),
  PORT: envPort,
  /** /metrics on its own port (recommended for the gateway: never published). */
  METRICS_PORT: envPort.optional(),
  METRICS_HOST: envString.optional(),
  /** Traces are exported over OTLP/HTTP only when an endpoint is set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: envUrl(['http', 'https']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: envUrl(['http', 'https']).optional(),
  OTEL_SERVICE_NAME: envString.optional(),
});

export const mongoEnv = z.object({ MONGO_URL: envMongoUrl });
export const amqpEnv = z.object({ AMQP_URL: envUrl(['amqp', 'amqps']) });
/**
 * How often a service's outbox relay sweeps each collection for events whose writer died
 * before publishing them (a failed flush is retried by `_id` every 5 s regardless): the
 * bound on how late such an event is published while the service runs.
 */
export const outboxEnv = z.object({
  OUTBOX_SWEEP_MS: envInt({ min: 100, max: 3_600_000 }).default(60_000),
});

/** `http://127.0.0.1:4191` or `http://127.0.0.1:4191/` → its origin; null when it is not one. */
export function originOnly(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  return url.origin;
}

/**
 * PROVIDER_URL_ALLOWED_ORIGINS (workspace and generation services): comma-separated origins a
 * provider base URL entered in the product may reach although they are private (the local
 * run's simulator). Empty (the default) in production: public https providers only.
 */
export const providerUrlEnv = z.object({
  PROVIDER_URL_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins: string[] = [];
      for (const item of value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const origin = originOnly(item);
        if (origin === null) {
          ctx.addIssue({
            code: 'custom',
            message: `must list origins only, such as http://127.0.0.1:4191 (not ${item})`,
          });
          return z.NEVER;
        }
        origins.push(origin);
      }
      return origins;
    }),
});
export const minioEnv = z.object({
  MINIO_ENDPOINT: envUrl(['http', 'https']),
  MINIO_ACCESS_KEY: envString,
  MINIO_SECRET_KEY: envString,
  MINIO_BUCKET: envBucket,
});

/**
 * The shared variables of a service (CONTRIBUTING.md). A service's config is
 * `baseServiceEnv.extend({ ... })`; one without files can use
 * `httpEnv.extend({ ...mongoEnv.shape, ...amqpEnv.shape })`.
 */
export const baseServiceEnv = httpEnv.extend({
  ...mongoEnv.shape,
  ...amqpEnv.shape,
  ...minioEnv.shape,
});

export type BaseServiceConfig = z.output<typeof baseServiceEnv>;
