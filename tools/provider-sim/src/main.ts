import { z } from 'zod';
import { FETCH_BAD_PORTS } from './lib/fetch-bad-ports';
import { parseConfigPatch } from './sim-config';
import { startProviderSim } from './sim-server';

/**
 * Runs the simulator as its own process (npm start, benchmarks, a local run).
 *   PORT            default 4191 (not 4190: fetch, and so the openai SDK, refuses that port)
 *   HOST            default 127.0.0.1
 *   SIM_VALID_KEYS  comma-separated accepted keys (default: any sk-… key without "invalid")
 *   SIM_CONFIG      JSON of the control config to start with, e.g. {"tokensPerSecond":200}
 */
const DEFAULT_PORT = 4191;

const envSchema = z.object({
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .refine((port) => !FETCH_BAD_PORTS.has(port), {
      message:
        'fetch (and so the openai SDK) refuses to connect to this port ("bad port"); pick another',
    })
    .default(DEFAULT_PORT),
  HOST: z.string().min(1).default('127.0.0.1'),
  SIM_VALID_KEYS: z
    .string()
    .optional()
    .transform((value) =>
      value
        ?.split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    ),
  SIM_CONFIG: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      try {
        return parseConfigPatch(JSON.parse(value));
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
});

async function main(): Promise<void> {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    console.error(
      JSON.stringify({ level: 'fatal', msg: 'provider-sim: invalid environment', problems }),
    );
    process.exit(1);
  }
  const env = parsed.data;
  const sim = await startProviderSim({
    port: env.PORT,
    host: env.HOST,
    ...(env.SIM_VALID_KEYS ? { validKeys: env.SIM_VALID_KEYS } : {}),
    ...(env.SIM_CONFIG ? { config: env.SIM_CONFIG } : {}),
  });
  console.log(
    JSON.stringify({
      level: 'info',
      msg: 'provider-sim listening',
      url: sim.url,
      control: `${sim.origin}/__sim`,
    }),
  );

  const stop = (signal: string): void => {
    console.log(JSON.stringify({ level: 'info', msg: 'provider-sim stopping', signal }));
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(
    JSON.stringify({ level: 'fatal', msg: 'provider-sim failed to start', error: String(error) }),
  );
  process.exit(1);
});
