import type { RequestListener } from 'node:http';
import type { Connection } from 'mongoose';
import type { DestinationStream } from 'pino';
import type { z } from 'zod';
import { ConfigError, loadConfig } from './config';
import { createLogger, type Logger } from './logger';
import { closeMongo, connectMongo, mongoReadiness, type ConnectMongoOptions } from './mongo';
import type { ReadinessCheck } from './readiness';
import { startServer, type ServerHandle, type StartServerOptions } from './http/server';
import { onShutdown, type ShutdownHandle, type ShutdownStep } from './shutdown';
import { createObjectStore, type ObjectStore } from './storage';
import { busReadiness, createBus, type Bus, type BusOptions } from './messaging';
import { observabilityEnv, type ObservabilityConfig } from './observability/config';
import { startMetricsServer } from './observability/endpoint';
import { ensureDefaultMetrics } from './observability/metrics';
import { initTracing } from './observability/tracing';

/** What runService needs from a config: where to listen and how much to log. */
export interface ServiceConfigShape {
  HOST: string;
  PORT: number;
  LOG_LEVEL: string;
  MONGO_URL?: string;
  AMQP_URL?: string;
  MINIO_ENDPOINT?: string;
  MINIO_ACCESS_KEY?: string;
  MINIO_SECRET_KEY?: string;
  MINIO_BUCKET?: string;
}

export interface ServiceDeps {
  logger: Logger;
  /** Connected when the config has `MONGO_URL`. */
  mongo?: Connection;
  /** Created (and its bucket ensured) when the config has the `MINIO_*` keys. */
  storage?: ObjectStore;
  /**
   * Connected when the config has `AMQP_URL` (service name = `name`). Closed by the
   * shutdown after your own stop steps, so register consumers' and outbox relays'
   * stops with `onStop` and the bus drains after them.
   */
  bus?: Bus;
  /**
   * The live list /readyz checks; mongo, minio and rabbitmq are already in it. Pass
   * this same array to `createHttpApp({ readiness })`; push any check of your own.
   */
  readiness: ReadinessCheck[];
  /**
   * Registers a shutdown step. Steps run after the HTTP server has closed, in the
   * order registered (consumers before the AMQP connection), before MongoDB closes.
   */
  onStop: (name: string, run: ShutdownStep['run']) => void;
}

export interface RunServiceOptions<S extends z.ZodType<ServiceConfigShape>> {
  name: string;
  configSchema: S;
  env?: Record<string, string | undefined>;
  /** Connect what else the service needs (RabbitMQ, consumers) and return its app. */
  start: (
    config: Readonly<z.output<S>>,
    deps: ServiceDeps,
  ) => Promise<RequestListener> | RequestListener;
  mongo?: ConnectMongoOptions;
  /** createBus options other than url/service/logger (schemas, prefetch, queueType…). */
  bus?: Omit<BusOptions, 'url' | 'service' | 'logger'>;
  shutdownTimeoutMs?: number;
  /** HTTP server timeouts from the config (the gateway's client-facing limits). */
  server?: (
    config: Readonly<z.output<S>>,
  ) => Pick<
    StartServerOptions,
    'headersTimeoutMs' | 'requestTimeoutMs' | 'connectionsCheckingIntervalMs'
  >;
  /** Replaced in tests; defaults to `process.exit`. */
  exit?: (code: number) => void;
  /** Where logs go (tests); defaults to stdout. */
  logDestination?: DestinationStream;
}

export interface RunningService<C> {
  config: Readonly<C>;
  logger: Logger;
  http: ServerHandle;
  /** What the HTTP server serves (the service's express app): its routes can be listed. */
  app: RequestListener;
  /** The metrics server, when `METRICS_PORT` is set. */
  metrics?: ServerHandle;
  deps: ServiceDeps;
  shutdown: ShutdownHandle['shutdown'];
}

/**
 * The whole start-up of a service: config (exit 1 naming every bad key), logger,
 * MongoDB, MinIO and RabbitMQ (each only when its keys are in the config), the
 * service's own `start`, the HTTP server, signals → graceful shutdown (http, your
 * `onStop` steps, amqp, mongo), and a logged (not fatal) unhandled rejection.
 *
 *     // services/prompt/src/main.ts
 *     void runService({ name: 'prompt', configSchema, start: (config, deps) => createApp({ config, ...deps }) });
 */
export async function runService<S extends z.ZodType<ServiceConfigShape>>(
  options: RunServiceOptions<S>,
): Promise<RunningService<z.output<S>>> {
  const { name, exit = (code: number) => process.exit(code) } = options;

  let config: Readonly<z.output<S>>;
  let observability: Readonly<ObservabilityConfig>;
  try {
    config = loadConfig(options.configSchema, options.env ?? process.env);
    observability = loadConfig(observabilityEnv, options.env ?? process.env);
  } catch (err) {
    const logger = createLogger(name, { destination: options.logDestination });
    if (err instanceof ConfigError) logger.fatal({ problems: err.problems }, err.message);
    else logger.fatal({ err }, 'cannot start');
    logger.flush();
    exit(1);
    throw err;
  }

  const logger = createLogger(name, {
    level: config.LOG_LEVEL,
    destination: options.logDestination,
  });
  const readiness: ReadinessCheck[] = [];
  const userSteps: ShutdownStep[] = [];
  const deps: ServiceDeps = {
    logger,
    readiness,
    onStop: (stepName, run) => userSteps.push({ name: stepName, run }),
  };

  // Spans are exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = initTracing({ service: name, env: options.env ?? process.env });
  ensureDefaultMetrics();

  let http: ServerHandle | undefined;
  let app: RequestListener | undefined;
  let metricsServer: ServerHandle | undefined;
  const steps: ShutdownStep[] = [
    { name: 'http', run: () => http?.close() },
    // Read at shutdown time, so steps registered at any point are included.
    { name: 'service', run: () => runInOrder(userSteps, logger) },
    { name: 'amqp', run: () => deps.bus?.close() },
    { name: 'mongo', run: () => (deps.mongo ? closeMongo(deps.mongo) : undefined) },
  ];
  // Exports the spans still buffered, last.
  if (tracing.enabled) steps.push({ name: 'tracing', run: () => tracing.shutdown() });
  const onUnhandledRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  };
  const onUncaughtException = (err: Error) => {
    logger.fatal({ err }, 'uncaught exception; shutting down');
    void shutdown.shutdown('uncaughtException', 1);
  };
  const shutdown = onShutdown(logger, steps, {
    timeoutMs: options.shutdownTimeoutMs,
    exit: (code) => {
      process.off('unhandledRejection', onUnhandledRejection);
      process.off('uncaughtException', onUncaughtException);
      shutdown.dispose();
      exit(code);
    },
  });
  process.on('unhandledRejection', onUnhandledRejection);
  process.on('uncaughtException', onUncaughtException);

  try {
    if (config.MONGO_URL) {
      deps.mongo = await connectMongo(config.MONGO_URL, logger, options.mongo);
      readiness.push(mongoReadiness(deps.mongo));
    }
    if (
      config.MINIO_ENDPOINT &&
      config.MINIO_ACCESS_KEY &&
      config.MINIO_SECRET_KEY &&
      config.MINIO_BUCKET
    ) {
      deps.storage = createObjectStore(
        {
          endpoint: config.MINIO_ENDPOINT,
          accessKey: config.MINIO_ACCESS_KEY,
          secretKey: config.MINIO_SECRET_KEY,
          bucket: config.MINIO_BUCKET,
        },
        logger,
      );
      await deps.storage.ensureBucket();
      readiness.push(deps.storage.readiness());
    }
    if (config.AMQP_URL) {
      deps.bus = await createBus({ ...options.bus, url: config.AMQP_URL, service: name, logger });
      readiness.push(busReadiness(deps.bus));
    }
    app = await options.start(config, deps);
    http = await startServer(app, {
      host: config.HOST,
      port: config.PORT,
      ...options.server?.(config),
    });
    logger.info({ url: http.url }, `${name} listening`);
    if (observability.METRICS_PORT !== undefined) {
      metricsServer = await startMetricsServer({
        host: observability.METRICS_HOST ?? config.HOST,
        port: observability.METRICS_PORT,
      });
      const server = metricsServer;
      steps.splice(1, 0, { name: 'metrics', run: () => server.close() });
      logger.info({ url: `${server.url}/metrics` }, 'metrics served');
    }
    if (tracing.enabled) logger.info('traces exported (OTLP/HTTP)');
  } catch (err) {
    logger.fatal({ err }, 'start-up failed');
    await shutdown.shutdown('start-up failed', 1);
    throw err;
  }

  return { config, logger, http, app, metrics: metricsServer, deps, shutdown: shutdown.shutdown };
}

async function runInOrder(steps: ShutdownStep[], logger: Logger): Promise<void> {
  let failed: unknown;
  for (const step of steps) {
    try {
      await step.run();
      logger.info({ step: step.name }, 'shutdown step done');
    } catch (err) {
      failed ??= err;
      logger.error({ step: step.name, err }, 'shutdown step failed');
    }
  }
  if (failed) throw failed;
}
