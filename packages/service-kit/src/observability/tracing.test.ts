import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { createHttpApp } from '../http/app';
import { startServer, type ServerHandle } from '../http/server';
import { createBus, type Bus } from '../messaging';
import { acquireSharedBrokerLock, createTestVhost } from '../testing';
import { captureLogs, waitUntil } from '../test-support';
import { recordSpans, type SpanRecorder } from './tracing';

jest.setTimeout(30_000);

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

const orderPlaced = z.object({ orderId: z.string() });

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

describe('traces across HTTP and RabbitMQ (in-process, in-memory exporter)', () => {
  let recorder: SpanRecorder;
  let vhost: Awaited<ReturnType<typeof createTestVhost>>;
  let releaseLock: () => void;
  let shop: Bus;
  let warehouse: Bus;
  let http: ServerHandle;
  const logs = captureLogs('tracetest', 'info');
  const consumed: string[] = [];

  beforeAll(async () => {
    recorder = recordSpans();
    vhost = await createTestVhost('aict-test-tracing');
    releaseLock = await acquireSharedBrokerLock();
    shop = await createBus({ url: vhost.url, service: 'shop', logger: logs.logger });
    warehouse = await createBus({ url: vhost.url, service: 'warehouse', logger: logs.logger });
    await warehouse.subscribe({
      queue: 'orders',
      exchange: shop.exchange,
      bindings: ['order.placed'],
      schemas: { 'order.placed': orderPlaced },
      handler: (event) => {
        logs.logger.info({ orderId: event.data.orderId }, 'order consumed');
        consumed.push(event.data.orderId);
      },
    });
    await warehouse.serve('warehouse.price', z.object({ orderId: z.string() }), (_p, ctx) => {
      logs.logger.info('pricing');
      return { price: 42, requestId: ctx.requestId };
    });
    const app = createHttpApp({
      service: 'shop',
      logger: logs.logger,
      routes: (express) => {
        express.post('/api/orders/:id', async (req, res) => {
          logs.logger.info('placing order');
          await shop.publish('order.placed', { orderId: req.params.id });
          const quote = await shop.request<{ price: number; requestId: string }>(
            'warehouse.price',
            { orderId: req.params.id },
          );
          res.status(201).json(quote);
        });
      },
    });
    http = await startServer(app, { port: 0 });
  });

  afterAll(async () => {
    await http?.close();
    await Promise.all([shop?.close(), warehouse?.close()]);
    releaseLock?.();
    await vhost?.remove();
    await recorder?.stop();
  });

  beforeEach(() => recorder.reset());

  it('when a request carries a traceparent, then the server span, the publish, the consume and the request/reply all join that trace as parent and children', async () => {
    const res = await fetch(`${http.url}/api/orders/o-1`, {
      method: 'POST',
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`, 'x-request-id': 'client-id' },
    });
    await waitUntil(
      () => consumed.includes('o-1') && recorder.named('process order.placed').length > 0,
      {
        timeoutMs: 10_000,
        intervalMs: 50,
      },
    );

    expect(res.status).toBe(201);
    // The request id is the trace id: on the answer, in the handler of the other service.
    expect(res.headers.get('x-request-id')).toBe(TRACE_ID);
    expect(await res.json()).toEqual({ price: 42, requestId: TRACE_ID });

    const [server] = recorder.named('POST /api/orders/:id');
    const [publish] = recorder.named('publish order.placed');
    const [consume] = recorder.named('process order.placed');
    const [request] = recorder.named('request warehouse.price');
    const [serve] = recorder.named('serve warehouse.price');
    for (const span of [server, publish, consume, request, serve]) {
      expect(span?.spanContext().traceId).toBe(TRACE_ID);
    }
    expect(server?.kind).toBe(SpanKind.SERVER);
    expect(parentOf(server as ReadableSpan)).toBe(CALLER_SPAN);
    expect(server?.attributes['http.route']).toBe('/api/orders/:id');
    expect(server?.attributes['http.response.status_code']).toBe(201);
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(parentOf(publish as ReadableSpan)).toBe(server?.spanContext().spanId);
    expect(consume?.kind).toBe(SpanKind.CONSUMER);
    expect(parentOf(consume as ReadableSpan)).toBe(publish?.spanContext().spanId);
    expect(consume?.attributes['messaging.destination.name']).toBe('warehouse.orders.v2');
    expect(request?.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(request as ReadableSpan)).toBe(server?.spanContext().spanId);
    expect(serve?.kind).toBe(SpanKind.SERVER);
    expect(parentOf(serve as ReadableSpan)).toBe(request?.spanContext().spanId);
  });

  it('when the work of one request is logged in both services, then every line carries the trace id as its request id', async () => {
    const res = await fetch(`${http.url}/api/orders/o-2`, { method: 'POST' });
    await waitUntil(() => consumed.includes('o-2'), { timeoutMs: 10_000, intervalMs: 50 });

    const traceId = res.headers.get('x-request-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    const [server] = recorder.named('POST /api/orders/:id');
    expect(server?.spanContext().traceId).toBe(traceId);
    expect(server?.parentSpanContext).toBeUndefined(); // a new trace starts here

    const lines = logs.lines();
    const placing = lines.filter((l) => l.msg === 'placing order').at(-1);
    const consumedLine = lines.find((l) => l.msg === 'order consumed' && l.orderId === 'o-2');
    const pricing = lines.filter((l) => l.msg === 'pricing').at(-1);
    const access = lines
      .filter((l) => l.msg === 'request completed')
      .find((l) => (l.req as { url?: string }).url === '/api/orders/o-2');
    for (const line of [placing, consumedLine, pricing, access]) {
      expect(line?.requestId).toBe(traceId);
    }
  });

  it('when a request/reply is made outside any request, then the reply is served in a trace of its own whose id is the request id', async () => {
    const reply = await shop.request<{ requestId: string }>('warehouse.price', { orderId: 'o-3' });

    const [request] = recorder.named('request warehouse.price');
    const [serve] = recorder.named('serve warehouse.price');
    expect(request?.parentSpanContext).toBeUndefined();
    expect(parentOf(serve as ReadableSpan)).toBe(request?.spanContext().spanId);
    expect(reply.requestId).toBe(request?.spanContext().traceId);
  });

  it('when an outbox-built event is published outside the request that built it, then it stays in that request’s trace', async () => {
    const envelope = await (async () => {
      const res = await fetch(`${http.url}/api/orders/o-4`, { method: 'POST' });
      return { traceId: res.headers.get('x-request-id') as string };
    })();
    await waitUntil(() => consumed.includes('o-4'), { timeoutMs: 10_000, intervalMs: 50 });
    recorder.reset();
    // What the outbox sweep does: publish an envelope built earlier, with no span active.
    const built = shop.envelope(
      'order.placed',
      { orderId: 'o-5' },
      {
        correlationId: envelope.traceId,
      },
    );
    await shop.publishEnvelopes([built]);
    await waitUntil(() => consumed.includes('o-5'), { timeoutMs: 10_000, intervalMs: 50 });
    await waitUntil(() => recorder.named('process order.placed').length > 0, {
      timeoutMs: 5_000,
      intervalMs: 50,
    });

    const [publish] = recorder.named('publish order.placed');
    const [consume] = recorder.named('process order.placed');
    expect(publish?.spanContext().traceId).toBe(envelope.traceId);
    expect(consume?.spanContext().traceId).toBe(envelope.traceId);
    const line = logs.lines().find((l) => l.msg === 'order consumed' && l.orderId === 'o-5');
    expect(line?.requestId).toBe(envelope.traceId);
  });
});
