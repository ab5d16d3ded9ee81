import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { currentRequestId, type Logger } from '@aict/service-kit';
import { serviceFor, type ServiceName } from './routes';

/**
 * Headers a client may not set: they carry identity or context that only the gateway
 * decides. Anything starting with `x-aict-` is reserved too.
 */
export const RESERVED_HEADERS = [
  'x-user-id',
  'x-user-role',
  'x-workspace-role',
  'x-forwarded-user',
];

export function stripReservedHeaders(req: IncomingMessage): void {
  for (const name of Object.keys(req.headers)) {
    if (name.startsWith('x-aict-') || RESERVED_HEADERS.includes(name)) delete req.headers[name];
  }
}

/**
 * Forwards `/api/*` to the owning service over keep-alive connections (services speak
 * plain HTTP inside the cluster). Bodies are never parsed here: uploads and streams pass
 * through untouched, server-sent events unbuffered.
 */
export function createApiProxy(options: {
  targets: Record<ServiceName, string>;
  timeoutMs: number;
  logger: Logger;
}) {
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: 512,
    maxFreeSockets: 64,
    scheduling: 'lifo',
  });
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    router: (req) => options.targets[serviceFor(req.url ?? '') as ServiceName],
    target: options.targets.auth,
    agent,
    xfwd: true,
    proxyTimeout: options.timeoutMs,
    on: {
      proxyReq: (proxyReq) => {
        const requestId = currentRequestId();
        if (requestId) proxyReq.setHeader('x-request-id', requestId);
      },
      error: (err, req, res) => {
        options.logger.warn({ err, url: req.url }, 'upstream unavailable');
        const out = res as ServerResponse;
        if (out.headersSent || typeof out.writeHead !== 'function') {
          out.destroy?.();
          return;
        }
        out.writeHead(502, { 'content-type': 'application/json' });
        out.end(
          JSON.stringify({
            code: 'GATEWAY.UPSTREAM_UNAVAILABLE',
            message: 'The service is unavailable, please try again.',
          }),
        );
      },
    },
  });
  return {
    agent,
    middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
      if (!serviceFor(req.url ?? '')) return next();
      stripReservedHeaders(req);
      return proxy(req, res, next);
    },
  };
}
