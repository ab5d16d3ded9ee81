import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanContext,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/**
 * OpenTelemetry tracing for the services and the gateway, set up by hand (no
 * auto-instrumentation): the kit opens the spans itself (HTTP server, publish, consume,
 * request/reply), so nothing patches `http`, express or amqplib.
 *
 * Without an exporter no tracer provider is registered: spans are the API's no-op ones,
 * yet a `traceparent` that arrives is still carried on (HTTP → RabbitMQ → HTTP), so a
 * process without an exporter does not break a trace that others record.
 */

export const TRACER_NAME = '@aict/service-kit';

/** W3C trace context headers (HTTP and AMQP message headers alike). */
export const TRACEPARENT_HEADER = 'traceparent';

/** Sends each ended span to every processor added (an exporter's, a test's recorder). */
class FanOutProcessor implements SpanProcessor {
  readonly processors = new Set<SpanProcessor>();
  onStart(span: Parameters<SpanProcessor['onStart']>[0], parent: Context): void {
    for (const p of this.processors) p.onStart(span, parent);
  }
  onEnd(span: ReadableSpan): void {
    for (const p of this.processors) p.onEnd(span);
  }
  async forceFlush(): Promise<void> {
    await Promise.all([...this.processors].map((p) => p.forceFlush()));
  }
  async shutdown(): Promise<void> {
    await Promise.all([...this.processors].map((p) => p.shutdown()));
  }
}

/**
 * The W3C propagator, made when a trace context is first extracted or injected. With the
 * build's lazy requires (.swcrc), @opentelemetry/core and the semantic conventions it loads
 * (some 3 MB) stay out of a process that never sees a `traceparent`.
 */
class LazyW3CPropagator implements TextMapPropagator {
  private propagator: TextMapPropagator | undefined;
  private get w3c(): TextMapPropagator {
    return (this.propagator ??= new W3CTraceContextPropagator());
  }
  inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    this.w3c.inject(ctx, carrier, setter);
  }
  extract(ctx: Context, carrier: unknown, getter: TextMapGetter): Context {
    return this.w3c.extract(ctx, carrier, getter);
  }
  fields(): string[] {
    return this.w3c.fields();
  }
}

const fanOut = new FanOutProcessor();
let basicsInstalled = false;
let provider: BasicTracerProvider | undefined;

/**
 * The context manager (AsyncLocalStorage) and the W3C propagator: installed once, cheap,
 * and needed even without an exporter so that an incoming trace context is carried on.
 */
export function installTracingBasics(): void {
  if (basicsInstalled) return;
  basicsInstalled = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new LazyW3CPropagator());
}

function ensureProvider(serviceName: string): void {
  if (provider) return;
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [fanOut],
  });
  trace.setGlobalTracerProvider(provider);
}

/** True when spans are recorded and exported somewhere (an exporter or a test recorder). */
export function tracingActive(): boolean {
  return fanOut.processors.size > 0;
}

export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

export interface TracingOptions {
  /** `service.name` of the spans (unless `OTEL_SERVICE_NAME` is set). */
  service: string;
  /** Where `OTEL_*` keys are read; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** An exporter of your own instead of OTLP (tests). */
  exporter?: SpanExporter;
}

export interface TracingHandle {
  /** Spans are exported. */
  enabled: boolean;
  /** Exports what is left and stops exporting (a shutdown step). */
  shutdown(): Promise<void>;
}

/** `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
export function otlpTracesUrl(env: Record<string, string | undefined>): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Starts tracing for this process. Exports with OTLP over HTTP (JSON) only when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set;
 * otherwise registers no provider and costs next to nothing.
 */
export function initTracing(options: TracingOptions): TracingHandle {
  installTracingBasics();
  const env = options.env ?? process.env;
  const url = otlpTracesUrl(env);
  const exporter = options.exporter ?? (url ? new OTLPTraceExporter({ url }) : undefined);
  if (!exporter) return { enabled: false, shutdown: async () => undefined };
  ensureProvider(env.OTEL_SERVICE_NAME?.trim() || options.service);
  const processor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 });
  fanOut.processors.add(processor);
  let stopped: Promise<void> | undefined;
  return {
    enabled: true,
    shutdown: () => {
      stopped ??= processor.shutdown().finally(() => fanOut.processors.delete(processor));
      return stopped;
    },
  };
}

export interface SpanRecorder {
  /** Spans ended so far (in the order they ended). */
  spans(): ReadableSpan[];
  /** Spans ended so far whose name is `name`. */
  named(name: string): ReadableSpan[];
  reset(): void;
  stop(): Promise<void>;
}

/**
 * Records the spans of this process in memory (tests): every span is recorded from now
 * on, as if an exporter were configured.
 */
export function recordSpans(): SpanRecorder {
  installTracingBasics();
  ensureProvider('test');
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  fanOut.processors.add(processor);
  return {
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((s) => s.name === name),
    reset: () => exporter.reset(),
    stop: async () => {
      fanOut.processors.delete(processor);
      await processor.shutdown();
    },
  };
}

/** The trace id of a span context, when it is a real one. */
export function traceIdOf(spanContext: SpanContext | undefined): string | undefined {
  return spanContext && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** The trace id of the active span (the request id of the logs when a trace exists). */
export function currentTraceId(): string | undefined {
  return traceIdOf(trace.getSpanContext(context.active()));
}

type Carrier = Record<string, unknown>;

/** The context carried by `traceparent`/`tracestate` in `carrier`, else the root context. */
export function extractTraceContext(carrier: Carrier | undefined, base = ROOT_CONTEXT): Context {
  if (!carrier || carrier[TRACEPARENT_HEADER] === undefined) return base;
  return propagation.extract(base, carrier);
}

/** Writes `traceparent`/`tracestate` of `ctx` into `carrier` (nothing when there is no trace). */
export function injectTraceContext(ctx: Context, carrier: Carrier): void {
  if (!trace.getSpanContext(ctx)) return;
  propagation.inject(ctx, carrier);
}

const TRACE_ID = /^[0-9a-f]{32}$/;

/**
 * The context to publish under when nothing is active: an event built earlier in a
 * traced request (an outbox entry published by the sweep) keeps that trace when its
 * correlation id is a trace id. The parent span id is made up (it names no real span),
 * so a trace viewer shows the publish under the request's trace with a gap above it.
 */
export function contextForCorrelation(correlationId: string | undefined): Context {
  const active = context.active();
  if (trace.getSpanContext(active) || !correlationId || !TRACE_ID.test(correlationId))
    return active;
  if (/^0+$/.test(correlationId)) return active;
  const spanId = randomSpanId();
  return trace.setSpanContext(active, {
    traceId: correlationId,
    spanId,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
}

function randomSpanId(): string {
  let id = '';
  while (!/[1-9a-f]/.test(id)) {
    id = Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
    id += Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0');
  }
  return id;
}

/** Runs `fn` with `span` active (so spans and publishes inside are its children). */
export function withSpan<T>(parent: Context, span: Span, fn: () => T): T {
  return context.with(trace.setSpan(parent, span), fn);
}
