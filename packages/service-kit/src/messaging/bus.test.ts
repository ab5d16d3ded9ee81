import { z } from 'zod';
import { currentContext, runWithContext, type RequestContext } from '../context';
import { createBus, type Bus } from './bus';
import type { Envelope } from './envelope';
import {
  acquireSharedBrokerLock,
  AMQP_TEST_URL,
  ensureTestVhost,
  openAdmin,
  rabbitmqctl,
  testLogger,
  uniqueName,
  waitFor,
} from './test-support';

jest.setTimeout(30_000);

const widgetCreated = z.object({ widgetId: z.string().min(1) });
const widgetAudited = z.object({ widgetId: z.string().min(1) });

let releaseLock: () => void;
let admin: Awaited<ReturnType<typeof openAdmin>>;
const buses: Bus[] = [];
const queues: string[] = [];
const exchanges: string[] = [];

async function newBus(overrides: Partial<Parameters<typeof createBus>[0]> = {}): Promise<Bus> {
  const bus = await createBus({
    url: AMQP_TEST_URL,
    service: uniqueName('svc'),
    logger: testLogger(),
    ...overrides,
  });
  buses.push(bus);
  exchanges.push(bus.exchange);
  return bus;
}

function track(sub: {
  queue: string;
  retryQueue: string;
  deadLetterQueue: string;
  deadLetterExchange: string;
}) {
  queues.push(sub.queue, sub.retryQueue, sub.deadLetterQueue);
  exchanges.push(sub.deadLetterExchange);
  return sub;
}

/** Has the broker close the connection a bus opened (its `connection_name` is the service). */
async function closeConnectionOf(service: string) {
  const listing = await rabbitmqctl('list_connections', '-q', 'pid', 'client_properties');
  const line = listing.split('\n').find((l) => l.includes(`{"connection_name","${service}"}`));
  const pid = line?.split('\t')[0];
  if (!pid) throw new Error(`no connection named ${service}`);
  await rabbitmqctl('close_connection', pid, 'test: connection lost');
}

/** Checks a queue from a connection of its own (a failed check closes the channel). */
async function checkQueueElsewhere(queue: string) {
  const peek = await openAdmin();
  try {
    return await peek.channel.checkQueue(queue);
  } finally {
    await peek.close();
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

beforeAll(async () => {
  await ensureTestVhost();
  releaseLock = await acquireSharedBrokerLock();
  admin = await openAdmin();
});

afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  await admin.deleteQueues(...queues);
  await admin.deleteExchanges(...exchanges);
  await admin.close();
  releaseLock();
});

describe('events', () => {
  it('when an event is published inside a request, then the consumer gets the full envelope and runs in its context', async () => {
    const bus = await newBus();
    const received = deferred<{ event: Envelope; ctx: RequestContext | undefined }>();
    track(
      await bus.subscribe({
        queue: 'widgets',
        exchange: bus.exchange,
        bindings: ['widget.created'],
        schemas: { 'widget.created': widgetCreated },
        handler: (event) => received.resolve({ event, ctx: currentContext() }),
      }),
    );
    // What travels on the wire, seen by a plain queue bound to the same exchange.
    const { queue: tap } = await admin.channel.assertQueue('', { exclusive: true });
    await admin.channel.bindQueue(tap, bus.exchange, 'widget.created');

    const published = await runWithContext({ requestId: 'req-roundtrip-1' }, () =>
      bus.publish('widget.created', { widgetId: 'w1' }),
    );

    const { event, ctx } = await received.promise;
    expect(event).toEqual({
      id: published.id,
      type: 'widget.created',
      version: 1,
      occurredAt: published.occurredAt,
      correlationId: 'req-roundtrip-1',
      causationId: null,
      data: { widgetId: 'w1' },
    });
    expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(event.occurredAt).toISOString()).toBe(event.occurredAt);
    expect(ctx).toEqual({ requestId: 'req-roundtrip-1', causationId: published.id });

    const raw = await waitFor(
      () => admin.channel.get(tap, { noAck: true }),
      5000,
      'tapped message',
    );
    expect(raw.properties).toMatchObject({
      deliveryMode: 2,
      contentType: 'application/json',
      messageId: published.id,
      headers: expect.objectContaining({ 'x-request-id': 'req-roundtrip-1' }),
    });
    expect(bus.stats()).toMatchObject({ published: 1, confirmed: 1, consumed: 1, connected: true });
    expect(bus.ready()).toBe(true);
  });

  it('when a handler publishes, then the new event carries the same correlation id and the handled event as its cause', async () => {
    const bus = await newBus();
    const audited = deferred<Envelope>();
    track(
      await bus.subscribe({
        queue: 'auditor',
        exchange: bus.exchange,
        bindings: ['widget.created'],
        schemas: { 'widget.created': widgetCreated },
        handler: async (event) => {
          await bus.publish('widget.audited', { widgetId: event.data.widgetId });
        },
      }),
    );
    track(
      await bus.subscribe({
        queue: 'audit-log',
        exchange: bus.exchange,
        bindings: ['widget.audited'],
        schemas: { 'widget.audited': widgetAudited },
        handler: (event) => audited.resolve(event),
      }),
    );

    const first = await runWithContext({ requestId: 'req-chain' }, () =>
      bus.publish('widget.created', { widgetId: 'w2' }),
    );

    const second = await audited.promise;
    expect(second.correlationId).toBe('req-chain');
    expect(second.causationId).toBe(first.id);
  });

  it('when an invalid message arrives, then it lands in the dead-letter queue and the next valid one is still handled', async () => {
    const bus = await newBus();
    const handled: string[] = [];
    const sub = track(
      await bus.subscribe({
        queue: 'strict',
        exchange: bus.exchange,
        bindings: ['widget.*'],
        schemas: { 'widget.created': widgetCreated },
        handler: (event) => {
          handled.push(event.data.widgetId);
        },
      }),
    );
    const valid = bus.envelope('widget.created', { widgetId: 'ok' });
    const send = (body: string, key = 'widget.created') =>
      admin.channel.publish(bus.exchange, key, Buffer.from(body));

    send('not json {');
    send(JSON.stringify({ ...valid, id: 'bad-data', data: { widgetId: 42 } }));
    send(JSON.stringify({ hello: 'not an envelope' }));
    send(JSON.stringify({ ...valid, id: 'unknown-type', type: 'widget.melted' }), 'widget.melted');
    await bus.publish('widget.created', { widgetId: 'next' });

    await waitFor(() => handled.includes('next'), 5000, 'the valid message');
    await waitFor(
      async () => (await admin.messageCount(sub.deadLetterQueue)) === 4,
      5000,
      '4 messages in the DLQ',
    );
    expect(handled).toEqual(['next']);
    expect(await admin.messageCount(sub.queue)).toBe(0);
    expect(bus.stats().deadLettered).toBe(4);
    const reasons: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const dead = await admin.channel.get(sub.deadLetterQueue, { noAck: true });
      reasons.push(dead && dead.properties.headers?.['x-dead-letter-reason']);
    }
    expect(reasons).toEqual([
      'invalid message: body is not JSON',
      'invalid message: invalid data',
      'invalid message: not an event envelope',
      'invalid message: no schema for event type widget.melted',
    ]);
  });

  it('when a handler keeps throwing, then it is retried a bounded number of times and then dead-lettered', async () => {
    const bus = await newBus();
    const attempts: number[] = [];
    const sub = track(
      await bus.subscribe({
        queue: 'flaky',
        exchange: bus.exchange,
        bindings: ['widget.created'],
        schemas: { 'widget.created': widgetCreated },
        maxRetries: 2,
        retryDelayMs: 100,
        handler: (_event, info) => {
          attempts.push(info.attempt);
          throw new Error('downstream is down');
        },
      }),
    );

    const event = await bus.publish('widget.created', { widgetId: 'w3' });

    await waitFor(
      async () => (await admin.messageCount(sub.deadLetterQueue)) === 1,
      10_000,
      'the DLQ',
    );
    expect(attempts).toEqual([0, 1, 2]);
    const dead = await admin.channel.get(sub.deadLetterQueue, { noAck: true });
    expect(dead && JSON.parse(dead.content.toString()).id).toBe(event.id);
    expect(dead && dead.properties.headers).toMatchObject({
      'x-retry-count': 2,
      'x-last-error': 'downstream is down',
      'x-dead-letter-reason': 'handler failed 3 times: downstream is down',
    });
    expect(bus.stats()).toMatchObject({ retried: 2, deadLettered: 1, redelivered: 2, consumed: 0 });
  });

  it('when a handler fails once, then the retry handles the event', async () => {
    const bus = await newBus();
    const done = deferred<number>();
    track(
      await bus.subscribe({
        queue: 'recovers',
        exchange: bus.exchange,
        bindings: ['widget.created'],
        schemas: { 'widget.created': widgetCreated },
        retryDelayMs: 50,
        handler: (_event, info) => {
          if (info.attempt === 0) throw new Error('transient');
          done.resolve(info.attempt);
        },
      }),
    );

    await bus.publish('widget.created', { widgetId: 'w4' });

    expect(await done.promise).toBe(1);
    await waitFor(() => bus.stats().consumed === 1, 2000, 'the ack');
  });

  it('when the broker cancels a consumer (its queue was deleted), then the bus reconnects and the consumer resumes', async () => {
    const bus = await newBus({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } });
    const handled: string[] = [];
    const sub = track(
      await bus.subscribe({
        queue: 'fragile',
        exchange: bus.exchange,
        bindings: ['widget.created'],
        schemas: { 'widget.created': widgetCreated },
        handler: (event) => void handled.push(event.data.widgetId),
      }),
    );

    await admin.channel.deleteQueue(sub.queue);
    await waitFor(() => bus.stats().connections === 2 && bus.ready(), 10_000, 'the reconnection');
    await bus.publish('widget.created', { widgetId: 'after-cancel' });

    await waitFor(() => handled.includes('after-cancel'), 5000, 'the resumed consumer');
  });

  it('when a subscription is exclusive, then one private queue takes events of several exchanges and goes with the connection', async () => {
    const bus = await newBus({ queueType: 'quorum' }); // exclusive queues are classic whatever the bus's type
    const other = await newBus();
    const handled: string[] = [];
    const sub = await bus.subscribe({
      queue: uniqueName('private'),
      exclusive: true,
      exchange: bus.exchange,
      bindings: ['widget.created', { exchange: other.exchange, routingKey: 'widget.audited' }],
      schemas: { 'widget.created': widgetCreated, 'widget.audited': widgetAudited },
      handler: (event) => {
        if (event.data.widgetId === 'boom') throw new Error('handler failed');
        handled.push(`${event.type}:${event.data.widgetId}`);
      },
    });

    await bus.publish('widget.created', { widgetId: 'boom' });
    await bus.publish('widget.created', { widgetId: 'a' });
    await other.publish('widget.audited', { widgetId: 'b' });

    await waitFor(() => handled.length === 2, 5000, 'both events');
    expect(handled).toEqual(['widget.created:a', 'widget.audited:b']);
    expect(sub).toMatchObject({ retryQueue: '', deadLetterQueue: '', deadLetterExchange: '' });
    expect(bus.stats()).toMatchObject({ consumed: 2, retried: 0, deadLettered: 1 });
    // Exclusive to the bus's connection: another connection may not even look at it.
    // (Each failed check closes the channel, hence a fresh connection per check.)
    await expect(checkQueueElsewhere(sub.queue)).rejects.toThrow(/RESOURCE_LOCKED/);
    await expect(checkQueueElsewhere(`${sub.queue}.dlq`)).rejects.toThrow(/NOT_FOUND/);

    await bus.close();
    await expect(checkQueueElsewhere(sub.queue)).rejects.toThrow(/NOT_FOUND/);
  });

  it('when an exclusive queue is lost with its connection, then the consumer comes back on a new one and onConsuming runs again', async () => {
    const bus = await newBus({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } });
    const handled: string[] = [];
    let consuming = 0;
    await bus.subscribe({
      queue: uniqueName('private'),
      exclusive: true,
      exchange: bus.exchange,
      bindings: ['widget.created'],
      schemas: { 'widget.created': widgetCreated },
      onConsuming: () => void consuming++,
      handler: (event) => void handled.push(event.data.widgetId),
    });
    expect(consuming).toBe(1);

    await closeConnectionOf(bus.service); // as a network loss would; the queue goes with it
    await waitFor(() => consuming === 2 && bus.ready(), 10_000, 'the second onConsuming');
    await bus.publish('widget.created', { widgetId: 'after-loss' });

    await waitFor(() => handled.includes('after-loss'), 5000, 'the resumed consumer');
    expect(bus.stats().connections).toBe(2);
  });

  it('when queues are quorum queues, then handling, retrying, dead-lettering and request/reply work the same', async () => {
    const bus = await newBus({ queueType: 'quorum' });
    const attempts: number[] = [];
    const sub = track(
      await bus.subscribe({
        queue: 'quorum',
        exchange: bus.exchange,
        bindings: ['widget.created'],
        schemas: { 'widget.created': widgetCreated },
        maxRetries: 1,
        retryDelayMs: 50,
        handler: (event, info) => {
          attempts.push(info.attempt);
          if (event.data.widgetId === 'poison') throw new Error('poison');
        },
      }),
    );
    const rpcName = uniqueName('test.rpc.quorum');
    queues.push(`rpc.${rpcName}`);
    await bus.serve(rpcName, z.object({ n: z.number() }), ({ n }) => n * 2);

    await bus.publish('widget.created', { widgetId: 'fine' });
    await bus.publish('widget.created', { widgetId: 'poison' });

    await waitFor(
      async () => (await admin.messageCount(sub.deadLetterQueue)) === 1,
      10_000,
      'the DLQ',
    );
    expect(attempts.sort()).toEqual([0, 0, 1]);
    expect(await bus.request(rpcName, { n: 21 })).toBe(42);
  });

  it('when a queue exists with other arguments, then subscribe fails with the broker’s reason and the bus keeps working', async () => {
    const bus = await newBus();
    const options = {
      queue: 'conflicting',
      exchange: bus.exchange,
      bindings: ['widget.created'],
      schemas: { 'widget.created': widgetCreated },
      handler: () => undefined,
    };
    track(await bus.subscribe({ ...options, retryDelayMs: 1000 }));

    await expect(bus.subscribe({ ...options, retryDelayMs: 5000 })).rejects.toMatchObject({
      code: 406,
    });
    await bus.publish('widget.created', { widgetId: 'still-fine' });
    expect(bus.stats().connections).toBe(1);
  });

  it('when data does not match the registered schema, then publish refuses it before sending', async () => {
    const bus = await newBus({
      schemas: { 'widget.created': { version: 2, data: widgetCreated } },
    });

    await expect(bus.publish('widget.created', { widgetId: '' })).rejects.toMatchObject({
      code: 'EVENT.INVALID',
      status: 500,
    });
    const ok = await bus.publish('widget.created', { widgetId: 'w5' });
    expect(ok.version).toBe(2);
    expect(bus.stats().published).toBe(1);
  });

  it('when the bus closes, then handlers in flight finish and their messages are acked', async () => {
    const bus = await newBus();
    const started = deferred<void>();
    let finished = false;
    const sub = track(
      await bus.subscribe({
        queue: 'slow',
        exchange: bus.exchange,
        bindings: ['widget.created'],
        schemas: { 'widget.created': widgetCreated },
        handler: async () => {
          started.resolve();
          await new Promise((r) => setTimeout(r, 300));
          finished = true;
        },
      }),
    );
    await bus.publish('widget.created', { widgetId: 'w6' });
    await started.promise;

    await bus.close();

    expect(finished).toBe(true);
    expect(bus.ready()).toBe(false);
    expect(await admin.messageCount(sub.queue)).toBe(0); // acked, not requeued
    await expect(bus.publish('widget.created', { widgetId: 'late' })).rejects.toMatchObject({
      code: 'BUS.CLOSED',
    });
  });

  it('when 20k events are published in bulk, then every one is confirmed', async () => {
    const bus = await newBus();
    const { queue } = await admin.channel.assertQueue(uniqueName('bulk'), { durable: true });
    queues.push(queue);
    await admin.channel.bindQueue(queue, bus.exchange, 'widget.created');
    const items = Array.from({ length: 20_000 }, (_, i) => ({
      type: 'widget.created',
      data: { widgetId: `w${i}` },
    }));

    const started = process.hrtime.bigint();
    const envelopes = await bus.publishMany(items);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;

    expect(envelopes).toHaveLength(20_000);
    expect(bus.stats()).toMatchObject({
      published: 20_000,
      confirmed: 20_000,
      pendingPublishes: 0,
    });
    await waitFor(
      async () => (await admin.messageCount(queue)) === 20_000,
      10_000,
      '20k messages queued',
    );
    // A measurement, not an assertion (timings belong to bench/).
    process.stdout.write(
      `publishMany: 20000 confirmed in ${seconds.toFixed(2)} s (${Math.round(20_000 / seconds)}/s)\n`,
    );
  });

  it('when the broker cannot be reached at start, then createBus fails and names the address without credentials', async () => {
    await expect(
      createBus({
        url: 'amqp://guest:secret-pw@127.0.0.1:5999/x',
        service: 'nowhere',
        logger: testLogger(),
        reconnect: { initialRetries: 1, initialDelayMs: 10 },
      }),
    ).rejects.toThrow(/^RabbitMQ is unreachable at amqp:\/\/127\.0\.0\.1:5999\/x/);
  });
});
