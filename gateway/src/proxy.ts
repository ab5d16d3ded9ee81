import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createProxyMiddleware,
  debugProxyErrorsPlugin,
  proxyEventsPlugin,
} from 'http-proxy-middleware';
import { ErrorCode, IDENTITY_EVENTS_HEADER } from '@aict/contracts';
import {
  injectTraceContext,
  observeServerRequest,
  REQUEST_ID_HEADER,
  runWithContext,
  safeUrl,
  type Logger,
} from '@aict/service-kit';
import { apiTokenIdOf } from './access/api-tokens';
import { authorize, type AccessDeps } from './access/authorize';
import { sendError } from './error-response';
import { decodeIdentityEvents } from './identity/identity-events-header';
import type { IdentityEvent } from './identity/identity-state';
import { guardBody, maxBodyBytes, type RequestLimits } from './request-limits';
import { routeFor, serviceFor, type ServiceName } from './routes';

/**
 * Headers a client may not set: they carry identity or context that only the gateway
 * decides. Anything starting with `x-aict-` or `x-user-` is reserved too.
 */
export const RESERVED_HEADERS = [
  'x-user-id',
  'x-user-role',
  'x-workspace-role',
  'x-forwarded-user',
];

export function stripReservedHeaders(req: IncomingMessage): void {
  for (const name of Object.keys(req.headers)) {
    if (
      name.startsWith('x-aict-') ||
      name.startsWith('x-user-') ||
      RESERVED_HEADERS.includes(name)
    ) {
      delete req.headers[name];
    }
  }
}

export interface ApiProxyOptions {
  targets: Record<ServiceName, string>;
  /** Idle timeout towards a service once it answers (no byte for this long), not a total one. */
  timeoutMs: number;
  /**
   * How long a service may stay silent before its answer begins (while the request is sent to
   * it, and after): the gateway then answers 504. Generation routes have their own budget.
   */
  answerTimeoutMs: { default: number; generation: number };
  /** Client request bodies: sizes and timeouts. */
  limits: RequestLimits;
  logger: Logger;
  access: AccessDeps;
  /** Where identity events from a service's answer go (applied before the answer is forwarded). */
  onIdentityEvents: (events: IdentityEvent[]) => void;
  /** Set on every `/api` answer (the gateway's security headers). */
  responseHeaders: ReadonlyArray<readonly [string, string]>;
}

/**
 * Hop-by-hop request headers (RFC 9110 §7.6.1) concern one connection, not the message:
 * never forwarded (the proxy itself handles `connection`).
 */
const REQUEST_HOP_BY_HOP = [
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
];

/** A service's address in the shape http-proxy reads from a target. */
export interface ProxyTarget {
  protocol: string;
  host: string;
  /** Without the brackets of an IPv6 address (as http.request wants it). */
  hostname: string;
  port: string;
  /** The address's own path, which every request's path is appended to. */
  path: string;
}

/** Each service's address, parsed once. */
export function parsedTargets(
  targets: Record<ServiceName, string>,
): Record<ServiceName, ProxyTarget> {
  const parsed = {} as Record<ServiceName, ProxyTarget>;
  for (const [name, address] of Object.entries(targets) as Array<[ServiceName, string]>) {
    const { protocol, host, hostname, port, pathname } = new URL(address);
    parsed[name] = {
      protocol,
      host,
      hostname: hostname.replace(/^\[|\]$/g, ''),
      port,
      path: pathname,
    };
  }
  return parsed;
}

/** The service did not answer within its budget (or went silent mid-answer). */
class UpstreamTimeoutError extends Error {
  readonly code = 'EUPSTREAMTIMEOUT';
  constructor(ms: number) {
    super(`the service sent nothing for ${ms} ms`);
    this.name = 'UpstreamTimeoutError';
  }
}

/**
 * The `/api` door: for a path a service owns, it gives the request its id, authorises it
 * (`authorize`: session, workspace, signed context) and forwards it to the owning service
 * over keep-alive connections; every other request is left to the express app
 * (`handle` returns false).
 *
 * This path is kept lean on purpose (measured in bench/gateway): no express routing and
 * no per-request async machinery before http-proxy-middleware forwards the request. Bodies are never parsed: uploads and streams pass through untouched, and
 * nothing is compressed or buffered, so server-sent events go out as the service writes
 * them.
 */
/** The API token a request used, by its id (never the secret): each use is attributable. */
function tokenField(req: IncomingMessage): { apiTokenId?: string } {
  const id = apiTokenIdOf(req);
  return id === undefined ? {} : { apiTokenId: id };
}

export function createApiProxy(options: ApiProxyOptions) {
  const { logger, timeoutMs, answerTimeoutMs } = options;
  /** The request to the service of each client request in flight (to abort it). */
  const upstreams = new WeakMap<IncomingMessage, http.ClientRequest>();
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: 512,
    maxFreeSockets: 64,
    scheduling: 'lifo',
  });

  function log(level: 'info' | 'warn' | 'error', requestId: string, line: object, msg: string) {
    runWithContext({ requestId }, () => logger[level](line, msg));
  }

  /** The same line as service-kit's access log, built only when it is written. */
  function accessLog(req: IncomingMessage, res: ServerResponse, requestId: string) {
    const started = process.hrtime.bigint();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const aborted = !res.writableFinished;
      const length = Number(res.getHeader('content-length'));
      log(
        level,
        requestId,
        {
          req: {
            method: req.method,
            url: safeUrl(req.url ?? ''),
            remoteAddress: req.socket.remoteAddress,
          },
          res: { statusCode: status, contentLength: Number.isNaN(length) ? undefined : length },
          responseTimeMs: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
          ...(aborted ? { aborted: true } : {}),
          ...tokenField(req),
        },
        aborted ? 'request aborted' : 'request completed',
      );
    };
    res.once('finish', done);
    res.once('close', done);
  }

  /** Runs before the answer's headers are copied to the client. */
  function onAnswer(service: ServiceName, requestId: string, upstream: IncomingMessage) {
    const events = upstream.headers[IDENTITY_EVENTS_HEADER];
    if (events === undefined) return;
    const decoded = decodeIdentityEvents(events);
    if (decoded.invalid > 0) {
      log(
        'warn',
        requestId,
        { service, invalid: decoded.invalid },
        'invalid identity events in a service answer were ignored',
      );
    }
    // Applied now, so the caller's very next request already sees the change.
    if (decoded.events.length > 0) options.onIdentityEvents(decoded.events);
  }

  function fail(req: IncomingMessage, res: ServerResponse, requestId: string, err: Error) {
    // The client left (nobody to answer), or the gateway already answered (413, 408).
    if (res.destroyed || req.socket.destroyed || res.writableEnded) return;
    const timedOut = err instanceof UpstreamTimeoutError;
    log(
      'warn',
      requestId,
      { err, url: req.url },
      timedOut ? 'upstream timed out' : 'upstream unavailable',
    );
    if (res.headersSent) {
      res.destroy(); // cut mid-answer: the client must see it truncated
      return;
    }
    const code = timedOut
      ? ErrorCode.GATEWAY_UPSTREAM_TIMEOUT
      : ErrorCode.GATEWAY_UPSTREAM_UNAVAILABLE;
    sendError(res, code);
  }

  /**
   * The forwarder: http-proxy-middleware over the keep-alive agent. Timeouts towards the
   * service are its socket's idle timeouts: the route's answer budget until the answer
   * begins (a hung service: 504), then `timeoutMs`, so a stream that keeps sending is never
   * cut; a client that goes away ends the request to the service too.
   */
  const targets = parsedTargets(options.targets);
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: options.targets.auth,
    // Parsed once: a target given as a string is parsed again for every request.
    router: (req) => targets[serviceFor(req.url ?? '') ?? 'auth'] as unknown as string,
    // The path goes on as the client sent it, the very string `authorize` judged (`handle`
    // takes origin-form `/api/…` paths only), instead of re-parsed by the legacy url.parse
    // (which turns `\` into `/` after the check).
    toProxy: true,
    agent,
    xfwd: true,
    // Its default plugins but the logger: ours writes the access log, and the logger plugin
    // built a URL and a message for every answer only to hand them to a logger that drops
    // them (2.5 % of the gateway's CPU under load). The error plugin is ours (`on.error`).
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
    on: {
      proxyReq: (upstreamReq, req) => {
        for (const name of REQUEST_HOP_BY_HOP) upstreamReq.removeHeader(name);
        upstreams.set(req, upstreamReq);
        const budget =
          serviceFor(req.url ?? '') === 'generation'
            ? answerTimeoutMs.generation
            : answerTimeoutMs.default;
        upstreamReq.setTimeout(budget);
        let answered = false;
        upstreamReq.once('response', () => (answered = true));
        upstreamReq.on('timeout', () =>
          upstreamReq.destroy(new UpstreamTimeoutError(answered ? timeoutMs : budget)),
        );
      },
      proxyRes: (answer, req, res) => {
        // The answer has begun: from now on only silence longer than timeoutMs cuts it.
        upstreams.get(req)?.setTimeout(timeoutMs);
        const requestId = String(req.headers[REQUEST_ID_HEADER]);
        onAnswer(serviceFor(req.url ?? '') ?? 'auth', requestId, answer);
        // Headers of our own never go out to a browser; the identity events least of all.
        for (const name of Object.keys(answer.headers)) {
          if (name.startsWith('x-aict-')) delete answer.headers[name];
        }
        // The service's connection is its own business; the client's keeps its own terms.
        delete answer.headers.connection;
        delete answer.headers['keep-alive'];
        if (String(answer.headers['content-type']).startsWith('text/event-stream')) {
          // Tell any buffering proxy in front (nginx) to pass the stream on at once, and send
          // the headers as soon as the proxy has copied them (right after this hook).
          res.setHeader('x-accel-buffering', 'no');
          process.nextTick(() => {
            if (!res.headersSent) res.flushHeaders();
          });
        }
      },
      error: (err, req, res) => {
        if (res instanceof http.ServerResponse) {
          fail(req, res, String(req.headers[REQUEST_ID_HEADER]), err);
        }
      },
    },
  });

  function forward(req: IncomingMessage, res: ServerResponse) {
    void proxy(req, res, () =>
      fail(req, res, String(req.headers[REQUEST_ID_HEADER]), new Error('no route')),
    );
  }

  return {
    agent,
    /** Takes the request when a service owns its path; false leaves it to the next handler. */
    handle(req: IncomingMessage, res: ServerResponse): boolean {
      const owner = routeFor(req.url ?? '');
      if (!owner) return false;
      // Request id (the trace id when a trace exists; written on the request and the
      // answer), SERVER span, duration histogram by route label. The span's context goes
      // to the service as `traceparent` (no async context here: the hot path stays lean).
      const { requestId, context } = observeServerRequest(req, res, { route: () => owner.route });
      if (context) injectTraceContext(context, req.headers);
      for (const [name, value] of options.responseHeaders) res.setHeader(name, value);
      accessLog(req, res, requestId);
      stripReservedHeaders(req);
      // Node's server has answered `Expect: 100-continue` already; the service gets the body.
      delete req.headers.expect;
      const maxBytes = maxBodyBytes(options.limits, owner.service, req.url ?? '');
      const abortUpstream = () => upstreams.get(req)?.destroy();
      if (!guardBody(req, res, options.limits, maxBytes, abortUpstream)) return true;
      const allowed = authorize(req, res, options.access);
      if (allowed === true) forward(req, res);
      // A personal API token not cached yet: asked of the auth service first.
      else if (allowed !== false) {
        void allowed.then((ok) => {
          if (ok && !res.writableEnded && !req.socket.destroyed) forward(req, res);
        });
      }
      return true;
    },
  };
}
