import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Schema, type Connection } from 'mongoose';
import { z } from 'zod';
import { AppError } from '../errors';
import { connectMongo, ensureIndexes } from '../mongo';
import { captureLogs, TEST_MONGO_BASE, testMongoUrl } from '../test-support';
import { createHttpApp } from './app';
import { startServer, type ServerHandle } from './server';

interface User {
  email: string;
  name: string;
  age?: number;
}

describe('errorHandler', () => {
  const logs = captureLogs('errors-test');
  let mongo: Connection;
  let http: ServerHandle;
  let relay: Server;
  const relayed: Socket[] = [];
  let lost: Connection;

  beforeAll(async () => {
    mongo = await connectMongo(testMongoUrl('sk_errors'), logs.logger, { retries: 3 });
    const Users = mongo.model<User>(
      'User',
      new Schema<User>({
        email: { type: String, required: true, unique: true },
        name: { type: String, required: [true, 'Name is required'] },
        age: { type: Number, min: 0 },
      }),
    );
    await ensureIndexes(mongo);
    // A second connection through a TCP relay that the test cuts: the database goes away.
    relay = createServer((client) => {
      const upstream = connect(Number(new URL(TEST_MONGO_BASE).port), '127.0.0.1');
      relayed.push(client, upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayPort = (relay.address() as AddressInfo).port;
    lost = await connectMongo(`mongodb://127.0.0.1:${relayPort}/sk_errors_lost`, logs.logger, {
      retries: 3,
      serverSelectionTimeoutMS: 500,
    });
    const Lost = lost.model('Thing', new Schema({ name: String }));

    const app = createHttpApp({
      service: 'errors-test',
      logger: logs.logger,
      json: { limit: '10kb' },
      routes: (app) => {
        app.post('/users', async (req, res) => {
          const user = await Users.create(req.body);
          res.status(201).json({ id: user.id });
        });
        app.get('/users/:id', async (req, res) => {
          res.json(await Users.findById(req.params.id).lean());
        });
        app.get('/app-error', () => {
          throw new AppError('GENERATION.RATE_LIMITED', 429, 'Too many requests', {
            headers: { 'retry-after': '7' },
            details: { limit: 10 },
          });
        });
        app.get('/zod-in-use-case', async () => {
          z.object({ workspaceId: z.string({ error: 'workspaceId is required' }) }).parse({});
        });
        app.get('/boom-sync', () => {
          throw new Error('secret db password hunter2 in /srv/app/x.js');
        });
        app.get('/boom-async', async () => {
          await new Promise((r) => setTimeout(r, 1));
          throw new TypeError("Cannot read properties of undefined (reading 'hunter2')");
        });
        app.get('/boom-not-an-error', async () => {
          throw 'a string';
        });
        app.get('/store-down', async (_req, res) => {
          res.json(await Lost.findOne({ name: 'x' }).lean());
        });
        app.get('/socket-broke', async () => {
          // What the MongoDB driver threw when FerretDB died during a write.
          throw Object.assign(new Error('This socket has been ended by the other party'), {
            code: 'EPIPE',
          });
        });
        app.get('/store-socket-broke', () => {
          // The driver emits `commandFailed` with the error it then throws (mongodb's
          // cmap/connection.js `command`): FerretDB died during this write.
          const failure = Object.assign(
            new Error('This socket has been ended by the other party'),
            { code: 'EPIPE' },
          );
          mongo.getClient().emit('commandFailed', {
            commandName: 'insert',
            duration: 1,
            failure,
          } as never);
          throw failure;
        });
        app.get('/bus-down', () => {
          throw new AppError('BUS.UNAVAILABLE', 503, 'The message broker is unavailable');
        });
      },
    });
    http = await startServer(app, { port: 0 });
  });

  afterAll(async () => {
    await http.close();
    await lost.close(true);
    relay.close();
    await mongo.dropDatabase();
    await mongo.close();
  });

  const postUser = (body: unknown) =>
    fetch(`${http.url}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('when an AppError is thrown, then its status, code, message, details and headers are answered', async () => {
    const res = await fetch(`${http.url}/app-error`);

    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({
      code: 'GENERATION.RATE_LIMITED',
      message: 'Too many requests',
      details: { limit: 10 },
    });
  });

  it('when the database cannot be reached, then 503 DATABASE.UNAVAILABLE with Retry-After', async () => {
    relay.close();
    for (const socket of relayed) socket.destroy();
    // Let the driver see its pooled connections close: a query that races the close fails on
    // the dead socket itself (a bare EPIPE), not as "unreachable"; that answer is the next test's.
    await new Promise((resolve) => setTimeout(resolve, 250));

    const res = await fetch(`${http.url}/store-down`);

    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({
      code: 'DATABASE.UNAVAILABLE',
      message: 'The database is unavailable, please try again in a few seconds.',
    });
  });

  it('when a database command fails with a bare socket error (the server died mid-write), then 503 DATABASE.UNAVAILABLE with Retry-After', async () => {
    const res = await fetch(`${http.url}/store-socket-broke`);

    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({
      code: 'DATABASE.UNAVAILABLE',
      message: 'The database is unavailable, please try again in a few seconds.',
    });
  });

  it('when a connection breaks with a bare socket error, then 503 SERVICE.UNAVAILABLE with Retry-After', async () => {
    const res = await fetch(`${http.url}/socket-broke`);

    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({
      code: 'SERVICE.UNAVAILABLE',
      message: 'The service is briefly unavailable, please try again in a few seconds.',
    });
  });

  it('when a 503 AppError names no Retry-After, then the answer still tells when to retry', async () => {
    const res = await fetch(`${http.url}/bus-down`);

    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ code: 'BUS.UNAVAILABLE' });
  });

  it('when a use case throws a ZodError, then 400 VALIDATION.FAILED names the field', async () => {
    const res = await fetch(`${http.url}/zod-in-use-case`);

    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: 'VALIDATION.FAILED',
      message: 'workspaceId is required',
      details: [{ path: 'workspaceId', message: 'workspaceId is required' }],
    });
  });

  it('when the same unique key is inserted twice on FerretDB, then 409 CONFLICT.DUPLICATE', async () => {
    expect((await postUser({ email: 'dup@example.com', name: 'A' })).status).toBe(201);

    const res = await postUser({ email: 'dup@example.com', name: 'B' });

    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      code: 'CONFLICT.DUPLICATE',
      message: 'Already exists',
    });
  });

  it('when a mongoose validation fails, then 400 VALIDATION.FAILED with each path', async () => {
    const res = await postUser({ email: 'v@example.com', age: -3 });
    const body = await res.json();

    expect(res.status).toBe(400);
    expect(body.code).toBe('VALIDATION.FAILED');
    expect(body.details.map((d: { path: string }) => d.path).sort()).toEqual(['age', 'name']);
    expect(body.details).toContainEqual({ path: 'name', message: 'Name is required' });
  });

  it('when an id cannot be cast, then 400 VALIDATION.FAILED', async () => {
    const res = await fetch(`${http.url}/users/not-an-object-id`);

    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION.FAILED', message: 'Invalid _id' });
  });

  it('when a body exceeds the app-wide json limit, then 413', async () => {
    const res = await postUser({ email: 'big@example.com', name: 'x'.repeat(20_000) });

    expect(res.status).toBe(413);
  });

  it.each(['/boom-sync', '/boom-async', '/boom-not-an-error'])(
    'when %s fails unexpectedly, then 500 INTERNAL without internals, logged with the request id, and the process stays up',
    async (path) => {
      const requestId = `boom-${path.slice(1)}`;

      const res = await fetch(`${http.url}${path}`, { headers: { 'x-request-id': requestId } });
      const text = await res.text();

      expect(res.status).toBe(500);
      expect(JSON.parse(text)).toEqual({ code: 'INTERNAL', message: 'Internal server error' });
      expect(text).not.toMatch(/hunter2|\/srv|TypeError|stack/);
      const logged = logs
        .lines()
        .find((l) => l.requestId === requestId && l.msg === 'request failed');
      expect(logged).toMatchObject({ level: 'error', req: { method: 'GET', url: path } });
      expect(logged?.err).toBeDefined();
      // still serving
      expect((await fetch(`${http.url}/healthz`)).status).toBe(200);
    },
  );
});
