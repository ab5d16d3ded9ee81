import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ROUTES } from '@aict/contracts';
import {
  DEFAULT_READINESS_TIMEOUT_MS,
  runReadinessChecks,
  type ReadinessCheck,
} from '../readiness';
import { metricsHandler, METRICS_PATH } from '../observability/endpoint';
import { observeRequests } from '../observability/http';
import { accessLog } from './access-log';
import { errorHandler, notFound } from './error-handler';
import { CHECK_RESPONSES_DEFAULT, checkResponses } from './response-check';

export interface HttpAppOptions {
  /** The service's name (reported by /healthz). */
  service: string;
  logger: Logger;
  /**
   * What /readyz checks. The array is read on every call, so checks pushed later
   * (e.g. RabbitMQ once connected) count too.
   */
  readiness?: ReadinessCheck[];
  readinessTimeoutMs?: number;
  /**
   * Parse JSON bodies for every route (`{ limit: '1mb' }`). Off by default: the gateway
   * must not parse bodies; services may instead use `jsonBody()` on the routes that take one.
   */
  json?: { limit?: string | number };
  /** express's `trust proxy` setting (e.g. `'loopback'` behind the gateway). */
  trustProxy?: boolean | string | number;
  /**
   * Mounts the routes; when given, `notFound()` and `errorHandler(logger)` are added
   * after them. Without it, add them yourself after your routes:
   * `app.use(notFound(), errorHandler(logger))`.
   */
  routes?: (app: Express) => void;
  /**
   * Serve `GET /metrics` (Prometheus) on this app. Default true: a service's port is
   * internal. The gateway passes false: its public port must not show metrics (it serves
   * them on `METRICS_PORT`, see runService).
   */
  metrics?: boolean;
  /**
   * Check each JSON success of the service's routes in the contracts' table (those whose
   * `service` is this app's `service`) against their response schemas: a 500 when one does
   * not fit (see checkResponses). Default: on when NODE_ENV=test.
   */
  checkResponses?: boolean;
}

/**
 * A JSON body parser for one route (or a router): `router.post('/x', jsonBody(), ...)`.
 * Typed loosely so it never competes with `validate`'s types on the same route.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function jsonBody(limit: string | number = '1mb'): RequestHandler<any, any, any, any> {
  return express.json({ limit });
}

/**
 * An express 5 app with a request id (context + response header; the trace id when a
 * trace exists), a server span and a duration histogram by route pattern per request,
 * one access-log line per request, /healthz, /readyz and /metrics; JSON bodies only when
 * asked for.
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const {
    service,
    logger,
    readiness = [],
    readinessTimeoutMs = DEFAULT_READINESS_TIMEOUT_MS,
  } = options;
  const app = express();
  app.disable('x-powered-by');
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);

  app.use(observeRequests());
  app.use(accessLog(logger));

  app.get('/healthz', (_req, res) => {
    res.set('cache-control', 'no-store').json({ status: 'ok', service });
  });
  let wasReady: boolean | undefined;
  app.get('/readyz', async (_req, res) => {
    const report = await runReadinessChecks(readiness, readinessTimeoutMs);
    // Log changes, not every probe (an orchestrator probes every few seconds).
    if (report.ready !== wasReady) {
      if (report.ready) logger.info({ checks: report.checks }, 'ready');
      else logger.warn({ checks: report.checks, failed: report.failed }, 'not ready');
      wasReady = report.ready;
    }
    res
      .status(report.ready ? 200 : 503)
      .set('cache-control', 'no-store')
      .json({
        status: report.ready ? 'ready' : 'not ready',
        checks: report.checks,
        failed: report.failed,
      });
  });

  if (options.metrics !== false) app.get(METRICS_PATH, metricsHandler());

  if (options.json) app.use(express.json({ limit: options.json.limit ?? '1mb' }));
  // The routes the contracts' table gives this service (none for the gateway or a stand-in).
  const ownRoutes = ROUTES.filter((route) => route.service === service);
  if (ownRoutes.length > 0 && (options.checkResponses ?? CHECK_RESPONSES_DEFAULT)) {
    app.use(checkResponses(logger, ownRoutes));
  }

  if (options.routes) {
    options.routes(app);
    app.use(notFound());
    app.use(errorHandler(logger));
  }
  return app;
}
