import type { RequestHandler } from 'express';
import { startServer, type ServerHandle } from '../http/server';
import { renderMetrics } from './metrics';

export const METRICS_PATH = '/metrics';

/** `GET /metrics` for an express app: the Prometheus text exposition of this process. */
export function metricsHandler(): RequestHandler {
  return (_req, res, next) => {
    renderMetrics().then(({ contentType, body }) => {
      res.status(200).set('content-type', contentType).set('cache-control', 'no-store').send(body);
    }, next);
  };
}

/**
 * A server of its own that answers `GET /metrics` and nothing else (404): for a port
 * that only the cluster's Prometheus reaches (`METRICS_PORT`).
 */
export function startMetricsServer(options: {
  host?: string;
  port: number;
}): Promise<ServerHandle> {
  return startServer(
    (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
        return;
      }
      renderMetrics().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        () => {
          res
            .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
            .end('metrics failed\n');
        },
      );
    },
    { host: options.host, port: options.port, closeGraceMs: 1_000 },
  );
}
