import { z } from 'zod';
import { createBus, type Bus, type Subscription } from './bus';
import {
  acquireExclusiveBrokerLock,
  AMQP_TEST_URL,
  ensureTestVhost,
  openAdmin,
  rabbitmqctl,
  testLogger,
  uniqueName,
  waitFor,
} from './test-support';

// Stops RabbitMQ for several seconds: one test, a generous timeout, and an exclusive
// lock so that no other messaging test file runs meanwhile.
jest.setTimeout(120_000);

let bus: Bus | undefined;
let sub: Subscription | undefined;

afterAll(async () => {
  await bus?.close();
  if (!sub || !bus) return;
  const admin = await openAdmin();
  await admin.deleteQueues(sub.queue, sub.retryQueue, sub.deadLetterQueue);
  await admin.deleteExchanges(sub.deadLetterExchange, bus.exchange);
  await admin.close();
});

it('when the broker restarts, then a message confirmed before it is consumed after it, and publishes made during it are confirmed after the reconnection', async () => {
  await ensureTestVhost();
  const release = await acquireExclusiveBrokerLock();
  try {
    bus = await createBus({
      url: AMQP_TEST_URL,
      service: uniqueName('svc'),
      logger: testLogger(),
      reconnect: { initialDelayMs: 200, maxDelayMs: 1000 },
      publishTimeoutMs: 60_000,
    });
    let restarted = false;
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const handledAfterRestart: string[] = [];
    let deliveries = 0;
    sub = await bus.subscribe({
      queue: 'survivor',
      exchange: bus.exchange,
      bindings: ['widget.created'],
      schemas: { 'widget.created': z.object({ widgetId: z.string() }) },
      handler: async (event) => {
        deliveries++;
        const startedAfterRestart = restarted;
        await gate; // holds the first delivery unacked while the broker goes down
        if (startedAfterRestart) handledAfterRestart.push(event.id);
      },
    });

    const before = await bus.publish('widget.created', { widgetId: 'before' }); // confirmed
    await waitFor(() => deliveries === 1, 5000, 'the first delivery');

    await rabbitmqctl('stop_app');
    await waitFor(() => !bus?.ready(), 10_000, 'the bus to notice the outage');
    restarted = true;
    openGate(); // the interrupted handler ends; its ack cannot reach the broker
    let duringConfirmed = false;
    const during = bus.publish('widget.created', { widgetId: 'during' }).then((env) => {
      duringConfirmed = true;
      return env;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(duringConfirmed).toBe(false);
    expect(bus.stats().pendingPublishes).toBe(1);

    await rabbitmqctl('start_app');

    const duringEnvelope = await during;
    await waitFor(
      () => handledAfterRestart.length === 2,
      30_000,
      'both messages after the restart',
    );
    expect(handledAfterRestart.sort()).toEqual([before.id, duringEnvelope.id].sort());
    expect(bus.ready()).toBe(true);
    expect(bus.stats()).toMatchObject({ connections: 2, published: 2, confirmed: 2, consumed: 2 });
  } finally {
    await rabbitmqctl('start_app').catch(() => undefined); // never leave the broker stopped
    release();
  }
});
