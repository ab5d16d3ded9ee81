import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { z } from 'zod';
import { runWithContext } from '../context';
import { AppError } from '../errors';
import { createBus, type Bus } from './bus';
import { rpcQueue } from './rpc';
import {
  acquireSharedBrokerLock,
  AMQP_TEST_URL,
  ensureTestVhost,
  openAdmin,
  testLogger,
  uniqueName,
} from './test-support';

jest.setTimeout(30_000);

let releaseLock: () => void;
let server: Bus;
let client: Bus;
const names: string[] = [];

function endpoint(): string {
  const name = uniqueName('test.rpc');
  names.push(name);
  return name;
}

const sumSchema = z.object({ a: z.number(), b: z.number() });

beforeAll(async () => {
  await ensureTestVhost();
  releaseLock = await acquireSharedBrokerLock();
  server = await createBus({
    url: AMQP_TEST_URL,
    service: uniqueName('server'),
    logger: testLogger(),
  });
  client = await createBus({
    url: AMQP_TEST_URL,
    service: uniqueName('client'),
    logger: testLogger(),
  });
});

afterAll(async () => {
  await Promise.all([server.close(), client.close()]);
  const admin = await openAdmin();
  await admin.deleteQueues(...names.map(rpcQueue));
  await admin.deleteExchanges(server.exchange, client.exchange);
  await admin.close();
  releaseLock();
});

describe('request/reply', () => {
  it('when a service asks, then the server answers within the caller’s request id', async () => {
    const name = endpoint();
    let seenRequestId: string | undefined;
    await server.serve(name, sumSchema, ({ a, b }, ctx) => {
      seenRequestId = ctx.requestId;
      return { sum: a + b };
    });

    const reply = await runWithContext({ requestId: 'req-rpc-1' }, () =>
      client.request(name, { a: 2, b: 3 }, { schema: z.object({ sum: z.number() }) }),
    );

    expect(reply).toEqual({ sum: 5 });
    expect(seenRequestId).toBe('req-rpc-1');
    expect(client.stats().requests).toBe(1);
    expect(server.stats().served).toBe(1);
  });

  it('when the server does not answer in time, then the request fails with RPC.TIMEOUT (503, retryable)', async () => {
    const name = endpoint();
    await server.serve(name, sumSchema, async () => {
      await new Promise((r) => setTimeout(r, 800));
      return { late: true };
    });

    const started = Date.now();
    const failure = await client
      .request(name, { a: 1, b: 1 }, { timeoutMs: 200 })
      .catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'RPC.TIMEOUT', status: 503 });
    expect(Date.now() - started).toBeLessThan(700);
  });

  it('when the handler throws an AppError, then the caller gets the same code, status, message and details', async () => {
    const name = endpoint();
    await server.serve(name, sumSchema, () => {
      throw AppError.conflict('PROMPT.NAME_TAKEN', 'A prompt with this name already exists', {
        field: 'name',
      });
    });

    const failure = await client.request(name, { a: 1, b: 2 }).catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({
      code: 'PROMPT.NAME_TAKEN',
      status: 409,
      message: 'A prompt with this name already exists',
      details: { field: 'name' },
    });
  });

  it('when the handler fails unexpectedly, then the caller gets INTERNAL without the internals', async () => {
    const name = endpoint();
    await server.serve(name, sumSchema, () => {
      throw new Error('connection string mongodb://admin:hunter2@db failed');
    });

    const failure = (await client
      .request(name, { a: 1, b: 2 })
      .catch((err: unknown) => err)) as AppError;

    expect(failure).toMatchObject({ code: 'INTERNAL', status: 500 });
    expect(failure.message).not.toMatch(/hunter2|mongodb/);
  });

  it('when the payload does not match the schema, then the caller gets VALIDATION.FAILED (400) with details', async () => {
    const name = endpoint();
    await server.serve(name, sumSchema, ({ a, b }) => a + b);

    const failure = (await client
      .request(name, { a: 'x' })
      .catch((err: unknown) => err)) as AppError;

    expect(failure).toMatchObject({ code: 'VALIDATION.FAILED', status: 400 });
    expect(failure.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'a' })]),
    );
  });

  it('when nobody serves the name, then the request fails at once with RPC.UNAVAILABLE', async () => {
    const started = Date.now();
    const failure = await client
      .request(uniqueName('test.rpc.nobody'), {}, { timeoutMs: 3000 })
      .catch((e: unknown) => e);

    expect(failure).toMatchObject({ code: 'RPC.UNAVAILABLE', status: 503 });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('request/reply while the broker is unreachable', () => {
  it('when the connection to RabbitMQ is down, then a request fails with 503 RPC.UNAVAILABLE, a retryable error, rather than a timeout', async () => {
    // The caller reaches RabbitMQ through a TCP relay that the test cuts.
    const broker = new URL(AMQP_TEST_URL);
    const sockets: Socket[] = [];
    const relay = createServer((socket) => {
      const upstream = connect(Number(broker.port || 5672), broker.hostname);
      sockets.push(socket, upstream);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayed = new URL(AMQP_TEST_URL);
    relayed.hostname = '127.0.0.1';
    relayed.port = String((relay.address() as AddressInfo).port);
    const cut = await createBus({
      url: relayed.toString(),
      service: uniqueName('cut'),
      logger: testLogger(),
      reconnect: { initialDelayMs: 60_000, maxDelayMs: 60_000 },
    });
    try {
      relay.close();
      for (const socket of sockets) socket.destroy();
      while (cut.ready()) await new Promise((r) => setTimeout(r, 20));

      const failure = await cut
        .request(endpoint(), { a: 1, b: 2 }, { timeoutMs: 300 })
        .catch((err: unknown) => err);

      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ code: 'RPC.UNAVAILABLE', status: 503 });
      expect((failure as AppError).message).toMatch(/^[A-Z].*\.$/);
    } finally {
      await cut.close();
    }
  });
});
