import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { AppError } from '../errors';
import {
  contextForCorrelation,
  extractTraceContext,
  injectTraceContext,
  TRACEPARENT_HEADER,
  traceIdOf,
  tracer,
  tracingActive,
} from './tracing';

/** A span around one message (publish, consume, request, serve). */
export interface MessageSpan {
  /** The trace id when the message belongs to a trace (it becomes the request id). */
  readonly traceId: string | undefined;
  /** Runs `fn` with this span (or the message's trace context) active. */
  run<T>(fn: () => T): T;
  /** Ends the span; an error (other than a 4xx AppError) marks it failed. Idempotent. */
  end(error?: unknown): void;
}

const NOOP: MessageSpan = { traceId: undefined, run: (fn) => fn(), end: () => undefined };

const BASE: Attributes = { 'messaging.system': 'rabbitmq' };

function isExpected(error: unknown): boolean {
  return error instanceof AppError && error.status < 500;
}

function spanHandle(span: Span, ctx: Context): MessageSpan {
  let ended = false;
  return {
    traceId: traceIdOf(span.spanContext()),
    run: (fn) => context.with(ctx, fn),
    end(error) {
      if (ended) return;
      ended = true;
      if (error !== undefined && !isExpected(error)) {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
      }
      if (error instanceof AppError) span.setAttribute('error.type', error.code);
      span.end();
    },
  };
}

export interface OutgoingMessage {
  /** Span name: `publish <routing key>` for events, `request <name>` for request/reply. */
  name: string;
  kind: 'publish' | 'request';
  /** The message's AMQP headers: `traceparent`/`tracestate` are written into them. */
  headers: Record<string, unknown>;
  /** The envelope's correlation id (a trace id when it was built inside a trace). */
  correlationId?: string;
  attributes?: Attributes;
}

/**
 * Opens the PRODUCER (publish) or CLIENT (request) span of an outgoing message, a child of
 * the active span, and writes its W3C trace context into the message headers. Without an
 * exporter no span is made, but an active trace context is still written (carried on).
 */
export function startOutgoingSpan(message: OutgoingMessage): MessageSpan {
  if (!tracingActive()) {
    const active = context.active();
    if (!trace.getSpanContext(active)) return NOOP;
    injectTraceContext(active, message.headers);
    return { ...NOOP, traceId: traceIdOf(trace.getSpanContext(active)) };
  }
  const parent =
    message.kind === 'publish' ? contextForCorrelation(message.correlationId) : context.active();
  const span = tracer().startSpan(
    message.name,
    {
      kind: message.kind === 'publish' ? SpanKind.PRODUCER : SpanKind.CLIENT,
      attributes: {
        ...BASE,
        'messaging.operation.type': 'send',
        ...message.attributes,
      },
    },
    parent,
  );
  const ctx = trace.setSpan(parent, span);
  injectTraceContext(ctx, message.headers);
  return spanHandle(span, ctx);
}

export interface IncomingMessageInfo {
  /** `process <event type>` for events, `serve <name>` for request/reply. */
  name: string;
  kind: 'process' | 'serve';
  headers: Record<string, unknown> | undefined;
  attributes?: Attributes;
}

/**
 * Opens the CONSUMER (event) or SERVER (request/reply) span of a delivery, a child of the
 * publisher's span when the headers carry a `traceparent`. Without an exporter, the
 * message's trace context is still made active (so what the handler publishes or calls
 * stays in the trace) and its trace id is returned.
 */
export function startIncomingSpan(message: IncomingMessageInfo): MessageSpan {
  const carried = message.headers?.[TRACEPARENT_HEADER] !== undefined;
  if (!carried && !tracingActive()) return NOOP;
  const parent = extractTraceContext(message.headers);
  if (!tracingActive()) {
    const traceId = traceIdOf(trace.getSpanContext(parent));
    if (!traceId) return NOOP;
    return { traceId, run: (fn) => context.with(parent, fn), end: () => undefined };
  }
  const span = tracer().startSpan(
    message.name,
    {
      kind: message.kind === 'process' ? SpanKind.CONSUMER : SpanKind.SERVER,
      attributes: {
        ...BASE,
        'messaging.operation.type': message.kind === 'process' ? 'process' : 'receive',
        ...message.attributes,
      },
    },
    parent,
  );
  return spanHandle(span, trace.setSpan(parent, span));
}
