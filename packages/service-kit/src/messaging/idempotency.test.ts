import mongoose, { type Connection } from 'mongoose';
import { z } from 'zod';
import { createBus, type Bus } from './bus';
import { createProcessedStore, idempotent } from './idempotency';
import {
  acquireSharedBrokerLock,
  AMQP_TEST_URL,
  ensureTestVhost,
  MONGO_TEST_URL,
  openAdmin,
  sleep,
  testLogger,
  uniqueName,
  waitFor,
} from './test-support';

jest.setTimeout(30_000);

let conn: Connection;
const collections: string[] = [];

function store(options: { leaseMs?: number } = {}) {
  const collection = uniqueName('processed');
  collections.push(collection);
  return createProcessedStore(conn, { collection, pollMs: 20, ...options });
}

beforeAll(async () => {
  conn = await mongoose
    .createConnection(MONGO_TEST_URL, { serverSelectionTimeoutMS: 5000 })
    .asPromise();
});

afterAll(async () => {
  for (const name of collections) await conn.dropCollection(name).catch(() => undefined);
  await conn.close();
});

describe('processed-event store', () => {
  it('when the same event id runs twice, then the work is done once', async () => {
    const processed = store();
    const applied: string[] = [];

    const first = await processed.runOnce(
      'evt-1',
      'widget.created',
      () => void applied.push('evt-1'),
    );
    const second = await processed.runOnce(
      'evt-1',
      'widget.created',
      () => void applied.push('evt-1'),
    );

    expect([first, second]).toEqual([true, false]);
    expect(applied).toEqual(['evt-1']);
    expect(await processed.isProcessed('evt-1')).toBe(true);
  });

  it('when two copies arrive at the same time, then the second waits for the first and does nothing', async () => {
    const processed = store();
    let runs = 0;
    const work = async () => {
      runs++;
      await sleep(150);
    };

    const results = await Promise.all([
      processed.runOnce('evt-2', 't', work),
      processed.runOnce('evt-2', 't', work),
    ]);

    expect(results.sort()).toEqual([false, true]);
    expect(runs).toBe(1);
  });

  it('when the handler fails, then the claim is released and the next delivery runs it', async () => {
    const processed = store();

    await expect(
      processed.runOnce('evt-3', 't', () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const ran = await processed.runOnce('evt-3', 't', () => undefined);

    expect(ran).toBe(true);
  });

  it('when the consumer holding a claim died, then a redelivery takes it over after the lease', async () => {
    const processed = store({ leaseMs: 200 });
    // A consumer that crashed mid-handling: its claim is never completed nor released.
    void processed.runOnce('evt-4', 't', () => new Promise<void>(() => undefined));
    await sleep(20);

    const ran = await processed.runOnce('evt-4', 't', () => undefined);

    expect(ran).toBe(true);
  });
});

describe('idempotent consumer', () => {
  let bus: Bus;
  let releaseLock: () => void;
  const queues: string[] = [];
  const exchanges: string[] = [];

  beforeAll(async () => {
    await ensureTestVhost();
    releaseLock = await acquireSharedBrokerLock();
    bus = await createBus({ url: AMQP_TEST_URL, service: uniqueName('svc'), logger: testLogger() });
  });

  afterAll(async () => {
    await bus.close();
    const admin = await openAdmin();
    await admin.deleteQueues(...queues);
    await admin.deleteExchanges(bus.exchange, ...exchanges);
    await admin.close();
    releaseLock();
  });

  it('when an event is delivered again (duplicate id), then the handler applies it once', async () => {
    const processed = store();
    const balance = { value: 0 };
    const sub = await bus.subscribe({
      queue: 'credits',
      exchange: bus.exchange,
      bindings: ['credit.granted'],
      schemas: { 'credit.granted': z.object({ amount: z.number() }) },
      handler: idempotent(processed, async (event) => {
        balance.value += event.data.amount; // not idempotent by itself
      }),
    });
    queues.push(sub.queue, sub.retryQueue, sub.deadLetterQueue);
    exchanges.push(sub.deadLetterExchange);
    const grant = bus.envelope('credit.granted', { amount: 10 });
    const other = bus.envelope('credit.granted', { amount: 1 });

    // The outbox after a crash, or a redelivery: the same envelope twice, then another.
    await bus.publishEnvelopes([grant, grant]);
    await bus.publishEnvelopes([other]);

    await waitFor(() => bus.stats().consumed === 3, 10_000, 'three deliveries acked');
    expect(balance.value).toBe(11);
  });
});
