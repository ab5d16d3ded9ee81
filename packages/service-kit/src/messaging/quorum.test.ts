import { z } from 'zod';
import { createBus, type Bus } from './bus';
import { DELIVERY_LIMIT, DEAD_LETTER_REASON_HEADER } from './consumer';
import { rpcQueue } from './rpc';
import {
  acquireSharedBrokerLock,
  AMQP_TEST_URL,
  ensureTestVhost,
  openAdmin,
  rabbitmqctl,
  TEST_VHOST,
  testLogger,
  uniqueName,
  waitFor,
} from './test-support';

jest.setTimeout(60_000);

const widgetCreated = z.object({ widgetId: z.string().min(1) });
const schemas = { 'widget.created': widgetCreated };

let releaseLock: () => void;
let admin: Awaited<ReturnType<typeof openAdmin>>;
const buses: Bus[] = [];
const queues: string[] = [];
const exchanges: string[] = [];

async function newBus(
  service: string,
  overrides: Partial<Parameters<typeof createBus>[0]> = {},
): Promise<Bus> {
  const bus = await createBus({ url: AMQP_TEST_URL, service, logger: testLogger(), ...overrides });
  buses.push(bus);
  exchanges.push(bus.exchange);
  return bus;
}

/** The type of each queue of the test vhost, as an operator sees it. */
async function queueTypes(): Promise<Map<string, string>> {
  const out = await rabbitmqctl(
    'list_queues',
    '-p',
    TEST_VHOST,
    'name',
    'type',
    '--quiet',
    '--no-table-headers',
  );
  return new Map(
    out
      .trim()
      .split('\n')
      .map((line) => line.split('\t') as [string, string]),
  );
}

/** Checks a queue from a connection of its own (a failed check closes the channel). */
async function exists(queue: string): Promise<boolean> {
  const peek = await openAdmin();
  try {
    await peek.channel.checkQueue(queue);
    return true;
  } catch (err) {
    if ((err as { code?: unknown }).code === 404) return false;
    throw err;
  } finally {
    await peek.close();
  }
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

describe('quorum queues', () => {
  it('when a bus declares its queues, then the work, retry and dead-letter queues are quorum queues, and request and private queues stay classic', async () => {
    const service = uniqueName('svc');
    const bus = await newBus(service);
    const sub = await bus.subscribe({
      queue: 'orders',
      exchange: bus.exchange,
      bindings: ['widget.created'],
      schemas,
      handler: () => undefined,
    });
    const rpcName = uniqueName('test.rpc');
    await bus.serve(rpcName, z.object({}), () => 'ok');
    const own = await bus.subscribe({
      queue: uniqueName('private'),
      exclusive: true,
      exchange: bus.exchange,
      bindings: ['widget.created'],
      schemas,
      handler: () => undefined,
    });
    queues.push(sub.queue, sub.retryQueue, sub.deadLetterQueue, rpcQueue(rpcName));
    exchanges.push(sub.deadLetterExchange);

    const types = await queueTypes();

    expect(sub.queue).toBe(`${service}.orders.v2`);
    expect(types.get(sub.queue)).toBe('quorum');
    expect(types.get(sub.retryQueue)).toBe('quorum');
    expect(types.get(sub.deadLetterQueue)).toBe('quorum');
    expect(types.get(rpcQueue(rpcName))).toBe('classic');
    expect(types.get(own.queue)).toBe('classic');
    expect(types.has(`${service}.orders`)).toBe(false); // no classic twin
  });

  it('when a message is delivered more than the delivery limit without being settled, then the broker dead-letters it', async () => {
    const bus = await newBus(uniqueName('svc'));
    const sub = await bus.subscribe({
      queue: 'crashing',
      exchange: bus.exchange,
      bindings: ['widget.created'],
      schemas,
      handler: () => undefined,
    });
    queues.push(sub.queue, sub.retryQueue, sub.deadLetterQueue);
    exchanges.push(sub.deadLetterExchange);
    await sub.close(); // the queue stays; a consumer that dies before acking is played below
    await bus.publish('widget.created', { widgetId: 'crash' });
    await waitFor(async () => (await admin.messageCount(sub.queue)) === 1, 5000, 'the message');

    let deliveries = 0;
    for (;;) {
      const msg = await admin.channel.get(sub.queue, { noAck: false });
      if (msg === false) break;
      deliveries++;
      admin.channel.nack(msg, false, true); // as a consumer's channel closing unacked does
      if (deliveries > DELIVERY_LIMIT + 5) break;
    }

    await waitFor(
      async () => (await admin.messageCount(sub.deadLetterQueue)) === 1,
      5000,
      'the DLQ',
    );
    expect(deliveries).toBeGreaterThanOrEqual(DELIVERY_LIMIT);
    expect(deliveries).toBeLessThanOrEqual(DELIVERY_LIMIT + 1);
    const dead = await admin.channel.get(sub.deadLetterQueue, { noAck: true });
    expect(dead && dead.properties.headers?.['x-first-death-reason']).toBe('delivery_limit');
  });

  it('when classic queues of the earlier version hold messages, then they are moved into the quorum queues and deleted', async () => {
    const service = uniqueName('svc');
    // The earlier version: the same consumer with classic queues under the plain names.
    const earlier = await newBus(service, { queueType: 'classic' });
    const options = {
      queue: 'orders',
      exchange: earlier.exchange,
      bindings: ['widget.created'],
      schemas,
    };
    const old = await earlier.subscribe({ ...options, handler: () => undefined });
    expect(old.queue).toBe(`${service}.orders`);
    await old.close(); // stopped for the upgrade; its queues stay with what arrives meanwhile
    await earlier.publish('widget.created', { widgetId: 'waiting-1' });
    await earlier.publish('widget.created', { widgetId: 'waiting-2' });
    const retrying = earlier.envelope('widget.created', { widgetId: 'retrying' });
    admin.channel.sendToQueue(old.retryQueue, Buffer.from(JSON.stringify(retrying)), {
      headers: { 'x-retry-count': 1 },
    });
    admin.channel.publish(old.deadLetterExchange, '', Buffer.from('not json {'), {
      headers: { [DEAD_LETTER_REASON_HEADER]: 'invalid message: body is not JSON' },
    });
    await waitFor(
      async () => (await admin.messageCount(old.queue)) === 2,
      5000,
      'the waiting events',
    );

    const handled: string[] = [];
    const bus = await newBus(service);
    const sub = await bus.subscribe({
      ...options,
      handler: (event, info) => void handled.push(`${event.data.widgetId}@${info.attempt}`),
    });
    queues.push(sub.queue, sub.retryQueue, sub.deadLetterQueue);
    exchanges.push(sub.deadLetterExchange, old.deadLetterExchange);

    await waitFor(() => handled.length === 3, 10_000, 'the moved events');
    expect(handled.sort()).toEqual(['retrying@1', 'waiting-1@0', 'waiting-2@0']);
    await waitFor(
      async () => (await admin.messageCount(sub.deadLetterQueue)) === 1,
      5000,
      'the moved dead letter',
    );
    const dead = await admin.channel.get(sub.deadLetterQueue, { noAck: true });
    expect(dead && dead.properties.headers?.[DEAD_LETTER_REASON_HEADER]).toBe(
      'invalid message: body is not JSON',
    );
    await waitFor(
      async () =>
        !(await exists(old.queue)) &&
        !(await exists(old.retryQueue)) &&
        !(await exists(old.deadLetterQueue)),
      5000,
      'the classic queues deleted',
    );
    // New events reach the quorum queue alone.
    await bus.publish('widget.created', { widgetId: 'after' });
    await waitFor(() => handled.includes('after@0'), 5000, 'the next event');
    expect((await queueTypes()).get(sub.queue)).toBe('quorum');
  });

  it('when an instance of the earlier version still consumes its classic queue, then the queue is left to it and moved once it stops', async () => {
    const service = uniqueName('svc');
    const earlier = await newBus(service, { queueType: 'classic' });
    const options = {
      queue: 'orders',
      exchange: earlier.exchange,
      bindings: ['widget.created'],
      schemas,
    };
    const oldHandled: string[] = [];
    const old = await earlier.subscribe({
      ...options,
      handler: (event) => void oldHandled.push(event.data.widgetId),
    });
    const handled: string[] = [];
    const bus = await newBus(service, { legacyRecheckMs: 200 });
    const sub = await bus.subscribe({
      ...options,
      handler: (event) => void handled.push(event.data.widgetId),
    });
    queues.push(sub.queue, sub.retryQueue, sub.deadLetterQueue);
    exchanges.push(sub.deadLetterExchange, old.deadLetterExchange);

    // Both versions get the event during the upgrade (handlers are idempotent by event id).
    await bus.publish('widget.created', { widgetId: 'during' });
    await waitFor(
      () => handled.includes('during') && oldHandled.includes('during'),
      5000,
      'both versions',
    );
    await new Promise((r) => setTimeout(r, 600)); // three rechecks
    expect(await exists(old.queue)).toBe(true);

    await old.close();
    await waitFor(async () => !(await exists(old.queue)), 10_000, 'the classic queue deleted');
    expect(await exists(old.deadLetterQueue)).toBe(false);
    await bus.publish('widget.created', { widgetId: 'after' });
    await waitFor(() => handled.includes('after'), 5000, 'the next event');
    expect(oldHandled).toEqual(['during']);
  });

  it('when the server of a request is still of the earlier version, then an upgraded server shares its request queue and both answer', async () => {
    const name = uniqueName('test.rpc.upgrade');
    const earlier = await newBus(uniqueName('svc'), { queueType: 'classic' });
    const oldServer = await earlier.serve(name, z.object({ n: z.number() }), ({ n }) => n + 1);
    const caller = await newBus(uniqueName('svc'));
    expect(await caller.request(name, { n: 1 }, { timeoutMs: 3000 })).toBe(2);

    const upgraded = await newBus(uniqueName('svc'));
    const served = await upgraded.serve(name, z.object({ n: z.number() }), ({ n }) => n * 10);
    queues.push(served.queue);
    expect(served.queue).toBe(oldServer.queue);
    await oldServer.close();

    expect(await caller.request(name, { n: 3 }, { timeoutMs: 3000 })).toBe(30);
  });
});
