import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics of one process: ONE registry (not prom-client's global one), the
 * Node defaults (event-loop lag, heap, GC, handles…) and the kit's own series. Every
 * label takes values from a small, fixed set (route patterns, queue names, command
 * names), never from a raw URL or an id, so the number of series stays bounded.
 */
export const registry = new Registry();

let defaultsStarted = false;

/** Starts the Node default metrics (incl. `nodejs_eventloop_lag_seconds`) once per process. */
export function ensureDefaultMetrics(): void {
  if (defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
}

/** The exposition text and its content type (`GET /metrics`). */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  ensureDefaultMetrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

const SECONDS_FAST = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_HTTP = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const SECONDS_PROVIDER = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120, 300];

// ── HTTP ─────────────────────────────────────────────────────────────────────────────

const httpDuration = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'HTTP requests served, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: SECONDS_HTTP,
  registers: [registry],
});

const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'CONNECT',
  'TRACE',
]);

/** Routes that matched nothing (404s, static files) share this label: never the raw URL. */
export const NO_ROUTE = '(no route)';

export const httpMetrics = {
  /** One finished (or aborted) request. `route` is a pattern (`/api/prompts/:id`), never a URL. */
  observe(method: string | undefined, route: string | undefined, status: number, seconds: number) {
    const m = method && KNOWN_METHODS.has(method) ? method : 'OTHER';
    httpDuration.observe(
      { method: m, route: route || NO_ROUTE, status_code: String(status) },
      seconds,
    );
  },
};

// ── RabbitMQ ─────────────────────────────────────────────────────────────────────────

const amqpPublished = new Counter({
  name: 'amqp_messages_published_total',
  help: 'Events handed to the broker (each envelope once), by exchange and routing key',
  labelNames: ['exchange', 'routing_key'] as const,
  registers: [registry],
});
const amqpConfirms = new Counter({
  name: 'amqp_publish_confirms_total',
  help: 'Outcome of each publish: ack (confirmed), nack (refused by the broker), timeout, closed, error',
  labelNames: ['exchange', 'result'] as const,
  registers: [registry],
});
const amqpConsumed = new Counter({
  name: 'amqp_messages_consumed_total',
  help: 'Deliveries handled, by queue and result: ack, retry, dead_letter, dropped, requeue',
  labelNames: ['queue', 'result'] as const,
  registers: [registry],
});
const amqpRedelivered = new Counter({
  name: 'amqp_messages_redelivered_total',
  help: 'Deliveries that were not first deliveries (broker redelivery or one of our retries)',
  labelNames: ['queue'] as const,
  registers: [registry],
});
const amqpDeadLettered = new Counter({
  name: 'amqp_messages_dead_lettered_total',
  help: 'Messages sent to the dead-letter queue (or dropped, for a private queue), by reason: invalid, failed',
  labelNames: ['queue', 'reason'] as const,
  registers: [registry],
});
const amqpHandleDuration = new Histogram({
  name: 'amqp_consume_duration_seconds',
  help: 'Time spent handling one delivery, by queue and result',
  labelNames: ['queue', 'result'] as const,
  buckets: SECONDS_FAST,
  registers: [registry],
});
const rpcClientDuration = new Histogram({
  name: 'amqp_rpc_client_duration_seconds',
  help: 'Request/reply calls made, by name and result (ok, error, timeout, unavailable, closed)',
  labelNames: ['name', 'result'] as const,
  buckets: SECONDS_FAST,
  registers: [registry],
});
const rpcServerDuration = new Histogram({
  name: 'amqp_rpc_server_duration_seconds',
  help: 'Request/reply calls served, by name and result (ok, error)',
  labelNames: ['name', 'result'] as const,
  buckets: SECONDS_FAST,
  registers: [registry],
});

export type ConfirmResult = 'ack' | 'nack' | 'timeout' | 'closed' | 'error';
export type ConsumeResult = 'ack' | 'retry' | 'dead_letter' | 'dropped' | 'requeue';

export const busMetrics = {
  published(exchange: string, routingKey: string) {
    amqpPublished.inc({ exchange, routing_key: routingKey });
  },
  confirmed(exchange: string, result: ConfirmResult) {
    amqpConfirms.inc({ exchange, result });
  },
  redelivered(queue: string) {
    amqpRedelivered.inc({ queue });
  },
  deadLettered(queue: string, reason: 'invalid' | 'failed') {
    amqpDeadLettered.inc({ queue, reason });
  },
  /** One delivery settled; `seconds` is the handler's time (0 for an invalid message). */
  consumed(queue: string, result: ConsumeResult, seconds: number) {
    amqpConsumed.inc({ queue, result });
    amqpHandleDuration.observe({ queue, result }, seconds);
  },
  rpcCall(name: string, result: string, seconds: number) {
    rpcClientDuration.observe({ name, result }, seconds);
  },
  rpcServed(name: string, result: 'ok' | 'error', seconds: number) {
    rpcServerDuration.observe({ name, result }, seconds);
  },
};

// ── MongoDB and MinIO ────────────────────────────────────────────────────────────────

const mongoDuration = new Histogram({
  name: 'mongodb_command_duration_seconds',
  help: 'MongoDB commands (driver command monitoring), by command name and result (ok, error)',
  labelNames: ['command', 'result'] as const,
  buckets: SECONDS_FAST,
  registers: [registry],
});
const storageDuration = new Histogram({
  name: 'minio_operation_duration_seconds',
  help: 'Object store calls of the kit client, by operation and result (ok, error)',
  labelNames: ['operation', 'result'] as const,
  buckets: SECONDS_FAST,
  registers: [registry],
});

export const storeMetrics = {
  mongoCommand(command: string, ok: boolean, seconds: number) {
    mongoDuration.observe({ command, result: ok ? 'ok' : 'error' }, seconds);
  },
  storageCall(operation: string, ok: boolean, seconds: number) {
    storageDuration.observe({ operation, result: ok ? 'ok' : 'error' }, seconds);
  },
};

// ── AI provider (called by the generation service) ──────────────────────────────────

const providerCallDuration = new Histogram({
  name: 'ai_provider_call_duration_seconds',
  help: 'AI provider calls from start to the last byte, by model and kind (text, chat, image…)',
  labelNames: ['model', 'kind'] as const,
  buckets: SECONDS_PROVIDER,
  registers: [registry],
});
const timeToFirstToken = new Histogram({
  name: 'ai_provider_time_to_first_token_seconds',
  help: 'Streamed AI provider calls: time until the first token arrived, by model and kind',
  labelNames: ['model', 'kind'] as const,
  buckets: SECONDS_PROVIDER,
  registers: [registry],
});
const providerErrors = new Counter({
  name: 'ai_provider_errors_total',
  help: 'Failed AI provider calls, by model, kind and error code (e.g. PROVIDER.TIMEOUT)',
  labelNames: ['model', 'kind', 'code'] as const,
  registers: [registry],
});

export interface ProviderCallLabels {
  /** The model asked for (`gpt-4o-mini`); cut to 64 characters. */
  model: string;
  /** What was asked: `text`, `chat`, `image`, … (a small fixed set). */
  kind: string;
}

/** A provider call being timed; every method is safe to call more than once (the first wins). */
export interface ProviderCallTimer {
  /** The first token (or chunk) arrived: observes the time to first token. */
  firstToken(): void;
  /** The call succeeded: observes its duration. */
  succeeded(): void;
  /** The call failed: counts the error by `code` and observes its duration. */
  failed(code: string): void;
}

const CODE = /^[A-Za-z0-9_.:-]{1,64}$/;

function providerLabels(labels: ProviderCallLabels): { model: string; kind: string } {
  return {
    model: String(labels.model || 'unknown').slice(0, 64),
    kind: String(labels.kind || 'unknown').slice(0, 32),
  };
}

/**
 * The AI provider metrics. The generation service times each call:
 *
 *     const call = metrics.providerCall({ model, kind: 'chat' });
 *     for await (const chunk of stream) { call.firstToken(); … }
 *     call.succeeded();                     // or, in the catch: call.failed(err.code)
 *
 * or wraps a promise: `await metrics.timeProviderCall({ model, kind: 'image' }, () => generate())`.
 */
export const metrics = {
  registry,
  providerCallDuration,
  timeToFirstToken,
  providerErrors,
  providerCall(labels: ProviderCallLabels): ProviderCallTimer {
    const l = providerLabels(labels);
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
    let first = false;
    let done = false;
    return {
      firstToken() {
        if (first || done) return;
        first = true;
        timeToFirstToken.observe(l, elapsed());
      },
      succeeded() {
        if (done) return;
        done = true;
        providerCallDuration.observe(l, elapsed());
      },
      failed(code: string) {
        if (done) return;
        done = true;
        providerCallDuration.observe(l, elapsed());
        providerErrors.inc({ ...l, code: CODE.test(code) ? code : 'OTHER' });
      },
    };
  },
  /** Times `fn` as one provider call; a rejection is counted with its `code` (else `INTERNAL`). */
  async timeProviderCall<T>(labels: ProviderCallLabels, fn: () => Promise<T>): Promise<T> {
    const call = metrics.providerCall(labels);
    try {
      const result = await fn();
      call.succeeded();
      return result;
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      call.failed(typeof code === 'string' ? code : 'INTERNAL');
      throw err;
    }
  },
};

/** Seconds since `started` (a `process.hrtime.bigint()`). */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}
