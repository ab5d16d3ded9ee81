import mongoose, { Schema, type Connection, type Model } from 'mongoose';
import { z } from 'zod';
import { createBus, type Bus } from './bus';
import type { Envelope } from './envelope';
import {
  createOutboxRelay,
  live,
  notDeleted,
  outboxDelete,
  outboxInsert,
  outboxPlugin,
  outboxUpdate,
} from './outbox';
import {
  acquireSharedBrokerLock,
  AMQP_TEST_URL,
  ensureTestVhost,
  MONGO_TEST_URL,
  openAdmin,
  testLogger,
  uniqueName,
  waitFor,
} from './test-support';
import { readsDuring, recordScansOnMiss } from '../testing';

jest.setTimeout(30_000);

interface Widget {
  _id: string;
  name: string;
}

const widgetSchema = z.object({ widgetId: z.string(), name: z.string() });
const schemas = {
  'widget.created': widgetSchema,
  'widget.renamed': widgetSchema,
  'widget.deleted': z.object({ widgetId: z.string() }),
};

let conn: Connection;
let releaseLock: () => void;
const models: Model<Widget>[] = [];
const buses: Bus[] = [];
const queues: string[] = [];
const exchanges: string[] = [];

function widgetModel(): Model<Widget> {
  const schema = new Schema<Widget>({ _id: String, name: { type: String, required: true } });
  schema.plugin(outboxPlugin);
  const model = conn.model<Widget>(uniqueName('Widget'), schema, uniqueName('widgets'));
  models.push(model);
  return model;
}

async function newBus(service = uniqueName('svc')): Promise<Bus> {
  const bus = await createBus({ url: AMQP_TEST_URL, service, logger: testLogger() });
  buses.push(bus);
  exchanges.push(bus.exchange);
  return bus;
}

/** A consumer of the service's widget events that records what it receives. */
async function listen(bus: Bus): Promise<Envelope[]> {
  const received: Envelope[] = [];
  const sub = await bus.subscribe({
    queue: uniqueName('listener'),
    exchange: bus.exchange,
    bindings: ['widget.*'],
    schemas,
    handler: (event) => void received.push(event),
  });
  queues.push(sub.queue, sub.retryQueue, sub.deadLetterQueue);
  exchanges.push(sub.deadLetterExchange);
  return received;
}

async function rawDoc(model: Model<Widget>, id: string) {
  return model.collection.findOne({ _id: id } as never);
}

beforeAll(async () => {
  await ensureTestVhost();
  releaseLock = await acquireSharedBrokerLock();
  conn = await mongoose
    .createConnection(MONGO_TEST_URL, { serverSelectionTimeoutMS: 5000, monitorCommands: true })
    .asPromise();
});

afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  for (const model of models) await model.collection.drop().catch(() => undefined);
  await conn.close();
  const admin = await openAdmin();
  await admin.deleteQueues(...queues);
  await admin.deleteExchanges(...exchanges);
  await admin.close();
  releaseLock();
});

describe('outbox', () => {
  it('when a write with events is followed by a crash (no flush), then the sweep publishes them', async () => {
    const Widget = widgetModel();
    const service = uniqueName('svc');
    const before = await newBus(service);
    const received = await listen(before);
    // The process writes state and events atomically…
    const created = before.envelope('widget.created', { widgetId: 'w1', name: 'One' });
    await Widget.create(outboxInsert({ _id: 'w1', name: 'One' }, [created]));
    const renamed = before.envelope('widget.renamed', { widgetId: 'w1', name: 'Uno' });
    await Widget.updateOne({ _id: 'w1' }, outboxUpdate({ $set: { name: 'Uno' } }, [renamed]));
    // …and dies before publishing them.
    expect(received).toEqual([]);

    // The restarted process sweeps.
    const after = await newBus(service);
    const relay = createOutboxRelay({ bus: after, logger: testLogger() });
    relay.watch(Widget, { intervalMs: 100, minAgeMs: 0 });

    await waitFor(() => received.length === 2, 10_000, 'the two events');
    await relay.close();
    expect(received.map((e) => e.id).sort()).toEqual([created.id, renamed.id].sort());
    const doc = await rawDoc(Widget, 'w1');
    expect(doc).toMatchObject({ name: 'Uno', _outbox: [] });
  });

  it('when a flush fails while the broker is away, then the watch publishes it by _id at its next pass and sweeps the collection only at its own pace', async () => {
    const Widget = widgetModel();
    let brokerDown = true;
    const published: string[] = [];
    const bus = {
      async publishEnvelopes(envelopes: readonly Envelope[]) {
        if (brokerDown) throw new Error('broker unreachable');
        published.push(...envelopes.map((e) => e.id));
      },
    };
    // Every sweep is a query on the whole collection (a scan on FerretDB): count them.
    const sweeps: unknown[] = [];
    const onCommand = (event: { commandName: string; command: Record<string, unknown> }) => {
      const filter = event.command.filter as Record<string, unknown> | undefined;
      if (event.commandName === 'find' && event.command.find === Widget.collection.name)
        if (filter && '$or' in filter) sweeps.push(filter);
    };
    conn.getClient().on('commandStarted', onCommand);
    const relay = createOutboxRelay({ bus, logger: testLogger() });
    relay.watch(Widget, { intervalMs: 100, minAgeMs: 0, fullSweepMs: 60_000 });
    await waitFor(() => sweeps.length === 1, 5000, 'the first sweep');

    const envelope = {
      id: 'e-retry',
      type: 'widget.created',
      version: 1,
      occurredAt: new Date().toISOString(),
      correlationId: 'req-1',
      causationId: null,
      data: { widgetId: 'w-retry', name: 'Retry' },
    } as Envelope;
    await Widget.create(outboxInsert({ _id: 'w-retry', name: 'Retry' }, [envelope]));
    await expect(relay.flush(Widget, 'w-retry')).rejects.toThrow('broker unreachable');
    brokerDown = false;

    await waitFor(() => published.length === 1, 5000, 'the retried event');
    await new Promise((resolve) => setTimeout(resolve, 500)); // a few more passes
    await relay.close();
    conn.getClient().off('commandStarted', onCommand);
    expect(published).toEqual(['e-retry']);
    expect(await rawDoc(Widget, 'w-retry')).toMatchObject({ _outbox: [] });
    expect(sweeps).toHaveLength(1);
  });

  it('when a document is flushed, then its events are published and its _outbox is empty', async () => {
    const Widget = widgetModel();
    const bus = await newBus();
    const received = await listen(bus);
    const relay = createOutboxRelay({ bus, logger: testLogger() });
    await Widget.create({ _id: 'w2', name: 'Two' });
    const renamed = bus.envelope('widget.renamed', { widgetId: 'w2', name: 'Deux' });

    await Widget.updateOne({ _id: 'w2' }, outboxUpdate({ name: 'Deux' }, [renamed]));
    const published = await relay.flush(Widget, 'w2');

    expect(published).toBe(1);
    expect(await rawDoc(Widget, 'w2')).toMatchObject({ name: 'Deux', _outbox: [] });
    await waitFor(() => received.length === 1, 5000, 'the event');
    expect(received[0]).toMatchObject({ id: renamed.id, data: { widgetId: 'w2', name: 'Deux' } });
    // Normal reads do not carry the pending events.
    expect(await Widget.findById('w2').lean()).not.toHaveProperty('_outbox');
    expect(await relay.flush(Widget, 'w2')).toBe(0);
  });

  it('when the writer flushes the events its insert carried, then they are published once and removed without reading the document', async () => {
    const Widget = widgetModel();
    const bus = await newBus();
    const received = await listen(bus);
    const relay = createOutboxRelay({ bus, logger: testLogger() });
    // Nested values as a generation's event holds them (empty ones included).
    const created = bus.envelope('widget.created', {
      widgetId: 'w7',
      name: 'Seven',
      metadata: { inputs: {}, usage: { promptTokens: 0 } },
      parentId: null,
      tags: [],
    });
    await Widget.create(outboxInsert({ _id: 'w7', name: 'Seven' }, [created]));

    let published = 0;
    const reads = await readsDuring(
      conn.getClient(),
      Widget.collection.collectionName,
      async () => {
        published = await relay.flush(Widget, 'w7', [created]);
      },
    );

    expect(published).toBe(1);
    expect(reads).toEqual([]);
    expect(await rawDoc(Widget, 'w7')).toMatchObject({ name: 'Seven', _outbox: [] });
    await waitFor(() => received.length === 1, 5000, 'the event');
    // Nothing left for a sweep to publish again.
    expect(await relay.sweep(Widget, { minAgeMs: 0 })).toBe(0);
    expect(received).toHaveLength(1);
  });

  it('when a document is deleted through the outbox, then reads skip it at once and the relay deletes it after publishing', async () => {
    const Widget = widgetModel();
    const bus = await newBus();
    const received = await listen(bus);
    const relay = createOutboxRelay({ bus, logger: testLogger() });
    await Widget.create({ _id: 'w3', name: 'Three' });
    const deleted = bus.envelope('widget.deleted', { widgetId: 'w3' });

    await Widget.updateOne({ _id: 'w3' }, outboxDelete([deleted]));

    expect(await Widget.findOne(notDeleted({ _id: 'w3' })).lean()).toBeNull();
    expect(await rawDoc(Widget, 'w3')).not.toBeNull(); // the tombstone holds the event
    await relay.flush(Widget, 'w3');
    expect(await rawDoc(Widget, 'w3')).toBeNull();
    await waitFor(() => received.length === 1, 5000, 'the event');
    expect(received[0]?.id).toBe(deleted.id);
  });

  it('when documents are read by id through live, then a tombstone and a missing one read as null without a scan of the collection', async () => {
    const Widget = widgetModel();
    await Widget.create([
      { _id: 'alive', name: 'Alive' },
      { _id: 'dead', name: 'Dead' },
    ]);
    await Widget.updateOne({ _id: 'dead' }, outboxDelete([{ id: 'e-dead' } as Envelope]));
    const scans = recordScansOnMiss(conn.getClient());

    const read = async (id: string) => live(await Widget.findById(id).lean());
    const [alive, dead, missing] = await Promise.all([read('alive'), read('dead'), read('none')]);
    scans.stop();

    expect(alive).toMatchObject({ _id: 'alive', name: 'Alive' });
    expect(dead).toBeNull();
    expect(missing).toBeNull();
    expect(scans.misses).toEqual([]);
    // The filter it replaces misses with a scan (what the recorder catches).
    const before = recordScansOnMiss(conn.getClient());
    expect(await Widget.findOne(notDeleted({ _id: 'dead' })).lean()).toBeNull();
    before.stop();
    expect(before.misses).toHaveLength(1);
  });

  it('when events are added while a flush is publishing, then they stay for the next flush', async () => {
    const Widget = widgetModel();
    const first = { id: 'e1', type: 'widget.renamed' } as Envelope;
    const second = { id: 'e2', type: 'widget.renamed' } as Envelope;
    const build = (e: Envelope, name: string): Envelope => ({
      ...e,
      version: 1,
      occurredAt: new Date().toISOString(),
      correlationId: 'req-1',
      causationId: null,
      data: { widgetId: 'w4', name },
    });
    const published: string[] = [];
    const bus = {
      async publishEnvelopes(envelopes: readonly Envelope[]) {
        published.push(...envelopes.map((e) => e.id));
        if (published.length === 1) {
          // Another request writes meanwhile.
          await Widget.updateOne({ _id: 'w4' }, outboxUpdate({ name: 'C' }, [build(second, 'C')]));
        }
      },
    };
    const relay = createOutboxRelay({ bus, logger: testLogger() });
    await Widget.create(outboxInsert({ _id: 'w4', name: 'B' }, [build(first, 'B')]));

    await relay.flush(Widget, 'w4');
    expect((await rawDoc(Widget, 'w4'))?._outbox.map((e: Envelope) => e.id)).toEqual(['e2']);
    await relay.flush(Widget, 'w4');

    expect(published).toEqual(['e1', 'e2']);
    expect(await rawDoc(Widget, 'w4')).toMatchObject({ name: 'C', _outbox: [] });
  });

  it('when plain fields and $push are given, then outboxUpdate keeps them next to the events', () => {
    const event = { id: 'e' } as Envelope;

    expect(outboxUpdate({ name: 'x', $inc: { n: 1 }, $push: { tags: 'a' } }, [event])).toEqual({
      $set: { name: 'x' },
      $inc: { n: 1 },
      $push: { tags: 'a', _outbox: { $each: [event] } },
    });
    expect(() => outboxUpdate({ $push: { _outbox: event } }, [event])).toThrow(/already pushes/);
  });
});
