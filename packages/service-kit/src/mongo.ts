import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';
import { instrumentMongo, MONGO_MONITOR_OPTIONS } from './observability/mongo';
import type { ReadinessCheck } from './readiness';

export interface ConnectMongoOptions {
  /** Attempts after the first one (default 20; `Infinity` waits forever). */
  retries?: number;
  /** First pause between attempts; doubles each time up to `maxDelayMs`. */
  delayMs?: number;
  maxDelayMs?: number;
  /**
   * How long an operation waits for a reachable server before failing (driver default
   * is 30 s; 5 s makes a down database answer fast and keeps start-up retries short).
   */
  serverSelectionTimeoutMS?: number;
  maxPoolSize?: number;
}

/**
 * Connects a dedicated mongoose Connection (never the global one), retrying with
 * backoff until the server answers. `autoIndex` is on: declared indexes (unique keys,
 * workspace + time) are built by each model; await `ensureIndexes(conn)` when a test
 * or a start-up step needs them in place.
 *
 * Works on MongoDB and on FerretDB v1: no transactions, change streams, `$lookup`…
 * With mongoose 9 use `returnDocument: 'after'` (not `new: true`) and read with `.lean()`.
 */
export async function connectMongo(
  url: string,
  logger: Logger,
  options: ConnectMongoOptions = {},
): Promise<Connection> {
  const {
    retries = 20,
    delayMs = 500,
    maxDelayMs = 5_000,
    serverSelectionTimeoutMS = 5_000,
    maxPoolSize,
  } = options;
  const where = describeMongoUrl(url);
  for (let attempt = 0; ; attempt++) {
    const connection = mongoose.createConnection(url, {
      autoIndex: true,
      autoCreate: true,
      serverSelectionTimeoutMS,
      ...MONGO_MONITOR_OPTIONS, // command durations for /metrics
      ...(maxPoolSize ? { maxPoolSize } : {}),
    });
    // An 'error' event without a listener would throw; log it instead.
    connection.on('error', (err) =>
      logger.warn({ err: { message: err.message } }, 'mongo connection error'),
    );
    try {
      await connection.asPromise();
      instrumentMongo(connection);
      connection.on('disconnected', () => logger.warn({ mongo: where }, 'mongo disconnected'));
      connection.on('reconnected', () => logger.info({ mongo: where }, 'mongo reconnected'));
      logger.info({ mongo: where, attempts: attempt + 1 }, 'mongo connected');
      return connection;
    } catch (err) {
      await connection.close(true).catch(() => undefined);
      if (attempt >= retries) {
        logger.error(
          { mongo: where, attempts: attempt + 1, err: { message: (err as Error).message } },
          'mongo unreachable, giving up',
        );
        throw err;
      }
      const wait = Math.min(delayMs * 2 ** attempt, maxDelayMs);
      logger.warn(
        {
          mongo: where,
          attempt: attempt + 1,
          retryInMs: wait,
          err: { message: (err as Error).message },
        },
        'mongo not reachable yet',
      );
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** /readyz check: a `ping` command to the server (bypasses mongoose buffering). */
export function mongoReadiness(connection: Connection, name = 'mongo'): ReadinessCheck {
  return {
    name,
    check: async () => {
      const db = connection.db;
      if (!db) throw new Error('not connected');
      await db.command({ ping: 1 });
    },
  };
}

/** Builds every registered model's indexes (and collections) now; resolves when done. */
export async function ensureIndexes(connection: Connection): Promise<void> {
  await Promise.all(Object.values(connection.models).map((model) => model.init()));
}

/** Closes the connection (a shutdown step). */
export async function closeMongo(connection: Connection): Promise<void> {
  await connection.close();
}

/** hosts/database of a MongoDB URL, without credentials or options (for logs). */
export function describeMongoUrl(url: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?#]*)(\/[^?#]*)?/.exec(url);
  return match ? `${match[1]}${match[2] ?? ''}` : '(invalid url)';
}
