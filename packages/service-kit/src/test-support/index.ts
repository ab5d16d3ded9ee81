/**
 * Helpers for this package's tests (real servers, captured logs). Not exported from
 * the package's index.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { createLogger, type Logger } from '../logger';

export const TEST_MONGO_BASE = (
  process.env.TEST_MONGO_BASE_URL ?? 'mongodb://127.0.0.1:27017'
).replace(/\/$/, '');

export const TEST_MINIO = {
  endpoint: process.env.TEST_MINIO_ENDPOINT ?? 'http://127.0.0.1:9000',
  accessKey: process.env.MINIO_ACCESS_KEY ?? 'aictminio',
  secretKey: process.env.MINIO_SECRET_KEY ?? 'aictminio-secret',
};

/** A name no other test run uses: `sk_http_lx3k2a_9f1c`. */
export function uniqueName(prefix: string, separator = '_'): string {
  return [prefix, Date.now().toString(36), randomBytes(3).toString('hex')].join(separator);
}

export function testMongoUrl(prefix: string): string {
  return `${TEST_MONGO_BASE}/${uniqueName(prefix)}`;
}

export interface CapturedLogs {
  logger: Logger;
  lines: () => Array<Record<string, unknown>>;
  raw: () => string;
}

/** A real pino logger writing into memory (through a destination stream). */
export function captureLogs(service = 'test', level = 'debug'): CapturedLogs {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger(service, { level, destination });
  const raw = () => chunks.join('');
  const lines = () =>
    raw()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, raw };
}

/**
 * The FerretDB launcher binary: `FERRETDB_LAUNCHER`, else the newest one built by
 * `npm run infra:up` (~/.cache/aict/bin), else /tmp/ferretdb-launcher.
 */
export function findFerretLauncher(): string | undefined {
  if (process.env.FERRETDB_LAUNCHER) return process.env.FERRETDB_LAUNCHER;
  const cache =
    process.env.AICT_CACHE_DIR ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'aict');
  const bin = join(cache, 'bin');
  if (existsSync(bin)) {
    const candidates = readdirSync(bin)
      .filter((f) => f.startsWith('ferretdb-'))
      .map((f) => join(bin, f))
      .filter((f) => statSync(f).isFile())
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    if (candidates[0]) return candidates[0];
  }
  return existsSync('/tmp/ferretdb-launcher') ? '/tmp/ferretdb-launcher' : undefined;
}

export async function waitUntil(
  predicate: () => Promise<boolean> | boolean,
  { timeoutMs = 20_000, intervalMs = 200 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
