import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { newRequestId, runWithContext } from '../context';
import { isWellFormedRequestId, REQUEST_ID_HEADER } from '../http/request-id';
import { httpMetrics, secondsSince } from './metrics';
import {
  extractTraceContext,
  installTracingBasics,
  TRACEPARENT_HEADER,
  traceIdOf,
  tracer,
  tracingActive,
} from './tracing';

export interface ServerRequestObservation {
  /** The request id: the trace id when a trace exists, else `x-request-id` or a new one. */
  requestId: string;
  /** The context holding the server span (undefined when there is no trace at all). */
  context: Context | undefined;
  span: Span | undefined;
}

export interface ObserveOptions {
  /** The route pattern, read when the response ends (never the raw URL). */
  route: () => string | undefined;
}

/**
 * The start of one HTTP request, shared by the services' express apps and the gateway's
 * proxy: extracts `traceparent`, opens the SERVER span, settles the request id (the
 * trace id when a trace exists; else a well-formed `x-request-id`; else a new one),
 * writes it on the request headers (a proxy forwards it) and the response, and when the
 * response ends records the duration histogram and ends the span.
 */
export function observeServerRequest(
  req: IncomingMessage,
  res: ServerResponse,
  options: ObserveOptions,
): ServerRequestObservation {
  const started = process.hrtime.bigint();
  const method = req.method ?? 'GET';
  let span: Span | undefined;
  let ctx: Context | undefined;
  if (req.headers[TRACEPARENT_HEADER] !== undefined || tracingActive()) {
    const parent = extractTraceContext(req.headers);
    span = tracer().startSpan(
      method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': method,
          'url.path': pathOf(req.url),
        },
      },
      parent,
    );
    ctx = trace.setSpan(parent, span);
  }
  const traceId = traceIdOf(span?.spanContext());
  const incoming = req.headers[REQUEST_ID_HEADER];
  const requestId = traceId ?? (isWellFormedRequestId(incoming) ? incoming : newRequestId());
  if (traceId && isWellFormedRequestId(incoming) && incoming !== traceId)
    span?.setAttribute('aict.client_request_id', incoming);
  req.headers[REQUEST_ID_HEADER] = requestId;
  res.setHeader(REQUEST_ID_HEADER, requestId);

  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    const status = res.statusCode;
    const route = options.route();
    httpMetrics.observe(method, route, status, secondsSince(started));
    if (!span || !span.isRecording()) return;
    if (route) {
      span.setAttribute('http.route', route);
      span.updateName(`${method} ${route}`);
    }
    span.setAttribute('http.response.status_code', status);
    if (!res.writableFinished) span.setAttribute('aict.aborted', true);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', finish);
  res.once('close', finish);
  return { requestId, context: ctx, span };
}

function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/**
 * Remembers the route pattern express matched: `req.route` is set by the router at the
 * moment of the match, when `req.baseUrl` is still the mounting path of its router.
 */
function captureRoute(req: IncomingMessage & { baseUrl?: string }): () => string | undefined {
  let matched: string | undefined;
  let value: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => value,
    set: (next: unknown) => {
      value = next;
      const path = (next as { path?: unknown } | undefined)?.path;
      if (path !== undefined) matched = `${req.baseUrl ?? ''}${String(path)}` || '/';
    },
  });
  return () => matched;
}

/**
 * The express middleware of `createHttpApp`: request id (see `observeServerRequest`),
 * server span, `http_server_request_duration_seconds` by route pattern, and the rest of
 * the request run inside the request context and the span's trace context.
 */
export function observeRequests(): RequestHandler {
  installTracingBasics();
  return (req, res, next) => {
    const route = captureRoute(req);
    const { requestId, context: ctx } = observeServerRequest(req, res, { route });
    if (ctx) context.with(ctx, () => runWithContext({ requestId }, next));
    else runWithContext({ requestId }, next);
  };
}
