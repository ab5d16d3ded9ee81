import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { currentContext, runWithContext } from '../context';

export interface AccessLogOptions {
  /** Paths logged at `debug` instead of `info` (probes would drown the log). */
  quietPaths?: string[];
}

const SENSITIVE_QUERY = /token|key|secret|password|passwd|signature|credential|code|auth|session/i;

/**
 * One line per request when the response finishes (or the client goes away):
 * method, url (sensitive query values redacted), status, duration, sizes.
 * Never bodies, cookies or authorization headers.
 */
export function accessLog(logger: Logger, options: AccessLogOptions = {}): RequestHandler {
  const quiet = new Set(options.quietPaths ?? ['/healthz', '/readyz']);
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const ctx = currentContext();
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      const line = {
        req: {
          method: req.method,
          url: safeUrl(req.originalUrl),
          remoteAddress: req.socket.remoteAddress,
        },
        res: { statusCode: status, contentLength: numberHeader(res.getHeader('content-length')) },
        responseTimeMs: Math.round(durationMs * 10) / 10,
        ...(aborted ? { aborted: true } : {}),
      };
      const level =
        quiet.has(req.path) && status < 500 ? 'debug' : status >= 500 ? 'error' : 'info';
      const write = () => logger[level](line, aborted ? 'request aborted' : 'request completed');
      if (ctx) runWithContext(ctx, write);
      else write();
    };
    res.once('finish', log);
    res.once('close', log);
    next();
  };
}

function numberHeader(value: unknown): number | undefined {
  const n = Number(value);
  return value === undefined || Number.isNaN(n) ? undefined : n;
}

/** The url with the values of sensitive-looking query parameters replaced. */
export function safeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawKey = eq < 0 ? part : part.slice(0, eq);
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        // keep the raw key
      }
      return SENSITIVE_QUERY.test(key) ? `${rawKey}=[redacted]` : part;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}
