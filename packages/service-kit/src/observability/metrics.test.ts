import * as amqp from 'amqplib';
import express from 'express';
import { z } from 'zod';
import { baseServiceEnv, envPort } from '../config';
import { AppError } from '../errors';
import { createHttpApp } from '../http/app';
import { eventsExchange } from '../messaging';
import { runService, type RunningService } from '../service';
import { acquireSharedBrokerLock, createTestVhost } from '../testing';
import { TEST_MINIO, testMongoUrl, uniqueName, waitUntil } from '../test-support';
import { metrics } from './metrics';

jest.setTimeout(60_000);

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[k as string] = v as string;
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample `name{labels…}` (labels given must match), else 0. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found.reduce((sum, s) => sum + s.value, 0);
}

const thingMade = z.object({ n: z.number().int() });

describe('metrics of a service started with runService', () => {
  const bucket = uniqueName('sk-metrics', '-');
  let vhost: Awaited<ReturnType<typeof createTestVhost>>;
  let releaseLock: () => void;
  let service: RunningService<z.output<typeof configSchema>>;
  const configSchema = baseServiceEnv.extend({ PORT: envPort.default(0) });
  const handled: number[] = [];
  let failedOnce = false;

  async function scrape(url: string): Promise<{ status: number; type: string; text: string }> {
    const res = await fetch(`${url}/metrics`);
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text: await res.text(),
    };
  }

  beforeAll(async () => {
    vhost = await createTestVhost('aict-test-metrics');
    releaseLock = await acquireSharedBrokerLock();
    service = await runService({
      name: 'metricstest',
      configSchema,
      exit: () => undefined,
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PORT: '0',
        METRICS_PORT: '0',
        MONGO_URL: testMongoUrl('sk_metrics'),
        AMQP_URL: vhost.url,
        MINIO_ENDPOINT: TEST_MINIO.endpoint,
        MINIO_ACCESS_KEY: TEST_MINIO.accessKey,
        MINIO_SECRET_KEY: TEST_MINIO.secretKey,
        MINIO_BUCKET: bucket,
      },
      start: async (_config, deps) => {
        const bus = deps.bus;
        if (!bus) throw new Error('no bus');
        await bus.subscribe({
          queue: 'things',
          exchange: bus.exchange,
          bindings: ['thing.made'],
          schemas: { 'thing.made': thingMade },
          retryDelayMs: 100,
          handler: (event) => {
            if (event.data.n === 2 && !failedOnce) {
              failedOnce = true;
              throw new Error('first try fails');
            }
            handled.push(event.data.n);
          },
        });
        await bus.serve('metricstest.sum', z.object({ a: z.number(), b: z.number() }), (p) => ({
          sum: p.a + p.b,
        }));
        const things = express.Router();
        things.get('/boom', (_req, _res, next) => next(new Error('kaboom')));
        things.get('/:id', (req, res) => {
          if (req.params.id === 'missing') throw new AppError('THING.NOT_FOUND', 404, 'No thing');
          res.json({ id: req.params.id });
        });
        return createHttpApp({
          service: 'metricstest',
          logger: deps.logger,
          readiness: deps.readiness,
          routes: (app) => app.use('/api/things', things),
        });
      },
    });
  });

  afterAll(async () => {
    // The database first: after the shutdown mongoose would buffer the drop for 10 s.
    await service?.deps.mongo?.dropDatabase().catch(() => undefined);
    await service?.shutdown('test done');
    const store = service?.deps.storage;
    if (store) {
      for (const key of await store.list('')) await store.remove(key);
      await store.client.removeBucket(bucket);
    }
    releaseLock?.();
    await vhost?.remove();
  });

  it('when requests were served, then /metrics counts them by method, route pattern and status, never by raw URL', async () => {
    const base = service.http.url;
    for (const path of ['/api/things/1', '/api/things/2', '/api/things/3']) {
      expect((await fetch(`${base}${path}`)).status).toBe(200);
    }
    expect((await fetch(`${base}/api/things/missing`)).status).toBe(404);
    expect((await fetch(`${base}/api/things/boom`)).status).toBe(500);
    expect((await fetch(`${base}/no/such/path/42`)).status).toBe(404);

    const { status, type, text } = await scrape(base);
    const samples = parse(text);

    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    const count = 'http_server_request_duration_seconds_count';
    expect(valueOf(samples, count, { route: '/api/things/:id', status_code: '200' })).toBe(3);
    expect(valueOf(samples, count, { route: '/api/things/:id', status_code: '404' })).toBe(1);
    // The error left the nested router through next(err): still labelled with its full pattern.
    expect(valueOf(samples, count, { route: '/api/things/boom', status_code: '500' })).toBe(1);
    expect(valueOf(samples, count, { route: '(no route)', status_code: '404' })).toBe(1);
    expect(text).not.toMatch(/things\/1"|things\/missing"|no\/such\/path/);
    expect(text).toContain(
      'http_server_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/things/:id",status_code="200"}',
    );
  });

  it('when the process runs, then the Node defaults are there, event-loop lag included', async () => {
    const samples = parse((await scrape(service.http.url)).text);

    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'process_cpu_user_seconds_total',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(samples.some((s) => s.name === name)).toBe(true);
    }
  });

  it('when events are published, retried, dead-lettered and requests served, then the RabbitMQ series move', async () => {
    const bus = service.deps.bus;
    if (!bus) throw new Error('no bus');
    const exchange = eventsExchange('metricstest');
    const queue = 'metricstest.things.v2'; // a quorum queue (messaging/README.md)

    await bus.publishMany([1, 2, 3].map((n) => ({ type: 'thing.made', data: { n } })));
    // Not an envelope: straight to the dead-letter queue.
    const raw = await amqp.connect(vhost.url);
    const ch = await raw.createConfirmChannel();
    ch.publish(exchange, 'thing.made', Buffer.from('not json'));
    await ch.waitForConfirms();
    await raw.close();
    expect(await bus.request('metricstest.sum', { a: 2, b: 3 })).toEqual({ sum: 5 });
    await expect(bus.request('metricstest.sum', { a: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION.FAILED',
    });
    await waitUntil(() => handled.length === 3, { timeoutMs: 10_000, intervalMs: 50 });

    // The metrics server of METRICS_PORT serves the same registry.
    const metricsUrl = service.metrics?.url;
    expect(metricsUrl).toBeDefined();
    const samples = parse((await scrape(metricsUrl as string)).text);
    expect(
      valueOf(samples, 'amqp_messages_published_total', { exchange, routing_key: 'thing.made' }),
    ).toBe(3);
    expect(valueOf(samples, 'amqp_publish_confirms_total', { exchange, result: 'ack' })).toBe(3);
    expect(valueOf(samples, 'amqp_messages_consumed_total', { queue, result: 'ack' })).toBe(3);
    expect(valueOf(samples, 'amqp_messages_consumed_total', { queue, result: 'retry' })).toBe(1);
    expect(valueOf(samples, 'amqp_messages_redelivered_total', { queue })).toBe(1);
    expect(
      valueOf(samples, 'amqp_messages_dead_lettered_total', { queue, reason: 'invalid' }),
    ).toBe(1);
    expect(valueOf(samples, 'amqp_consume_duration_seconds_count', { queue, result: 'ack' })).toBe(
      3,
    );
    const name = 'metricstest.sum';
    expect(valueOf(samples, 'amqp_rpc_client_duration_seconds_count', { name, result: 'ok' })).toBe(
      1,
    );
    expect(
      valueOf(samples, 'amqp_rpc_client_duration_seconds_count', { name, result: 'error' }),
    ).toBe(1);
    expect(valueOf(samples, 'amqp_rpc_server_duration_seconds_count', { name, result: 'ok' })).toBe(
      1,
    );
  });

  it('when MinIO and MongoDB are used, then their call latencies are recorded by operation and command', async () => {
    const store = service.deps.storage;
    const mongo = service.deps.mongo;
    if (!store || !mongo) throw new Error('no storage or mongo');
    await store.put('a/b.txt', Buffer.from('hello'), { contentType: 'text/plain' });
    expect(await store.stat('a/b.txt')).toMatchObject({ size: 5 });
    expect(await store.stat('a/missing.txt')).toBeNull();
    await mongo.collection('things').insertOne({ _id: 'x' as never, n: 1 });
    expect(await mongo.collection('things').findOne({ _id: 'x' as never })).toMatchObject({ n: 1 });
    await expect(mongo.collection('things').insertOne({ _id: 'x' as never })).rejects.toThrow();

    const samples = parse((await scrape(service.http.url)).text);
    const storage = 'minio_operation_duration_seconds_count';
    expect(valueOf(samples, storage, { operation: 'put', result: 'ok' })).toBe(1);
    expect(valueOf(samples, storage, { operation: 'stat', result: 'ok' })).toBe(2);
    expect(valueOf(samples, storage, { operation: 'ensureBucket', result: 'ok' })).toBe(1);
    const mongoCount = 'mongodb_command_duration_seconds_count';
    expect(valueOf(samples, mongoCount, { command: 'insert' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(samples, mongoCount, { command: 'find', result: 'ok' })).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('when the generation service times provider calls, then duration, time to first token and errors are exposed', async () => {
    const ok = metrics.providerCall({ model: 'gpt-4o-mini', kind: 'chat' });
    ok.firstToken();
    ok.firstToken(); // only the first counts
    ok.succeeded();
    const bad = metrics.providerCall({ model: 'gpt-4o-mini', kind: 'chat' });
    bad.failed('PROVIDER.TIMEOUT');
    await expect(
      metrics.timeProviderCall({ model: 'dall-e-3', kind: 'image' }, async () => {
        throw new AppError('PROVIDER.RATE_LIMITED', 429, 'slow down');
      }),
    ).rejects.toThrow('slow down');

    const samples = parse((await scrape(service.http.url)).text);
    const chat = { model: 'gpt-4o-mini', kind: 'chat' };
    expect(valueOf(samples, 'ai_provider_call_duration_seconds_count', chat)).toBe(2);
    expect(valueOf(samples, 'ai_provider_time_to_first_token_seconds_count', chat)).toBe(1);
    expect(
      valueOf(samples, 'ai_provider_errors_total', { ...chat, code: 'PROVIDER.TIMEOUT' }),
    ).toBe(1);
    expect(
      valueOf(samples, 'ai_provider_errors_total', {
        model: 'dall-e-3',
        kind: 'image',
        code: 'PROVIDER.RATE_LIMITED',
      }),
    ).toBe(1);
  });

  it('when the metrics port is asked anything but GET /metrics, then it answers 404', async () => {
    const res = await fetch(`${service.metrics?.url}/healthz`);
    expect(res.status).toBe(404);
  });
});
