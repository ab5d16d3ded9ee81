import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Schema, type Connection } from 'mongoose';
import { createHttpApp } from './http/app';
import { startServer, type ServerHandle } from './http/server';
import { connectMongo, describeMongoUrl, mongoReadiness } from './mongo';
import {
  captureLogs,
  findFerretLauncher,
  testMongoUrl,
  uniqueName,
  waitUntil,
} from './test-support';

/** A port nobody listens on right now. */
async function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A second FerretDB of our own, on its own port and data dir, that the test can stop. */
class OwnFerret {
  private child?: ChildProcess;
  constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly launcher: string,
  ) {}

  start(): void {
    this.child = spawn(
      this.launcher,
      ['-listen', `127.0.0.1:${this.port}`, '-sqlite-dir', this.dir],
      {
        stdio: 'ignore',
      },
    );
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
    this.child = undefined;
  }
}

const launcher = findFerretLauncher();

describe('connectMongo and readiness against a FerretDB we stop and start', () => {
  const logs = captureLogs('mongo-test');
  let ferret: OwnFerret;
  let dir: string;
  let mongo: Connection | undefined;
  let http: ServerHandle | undefined;

  beforeAll(async () => {
    if (!launcher)
      throw new Error(
        'FerretDB launcher not found: run `npm run infra:up` or set FERRETDB_LAUNCHER',
      );
    dir = mkdtempSync(join(tmpdir(), 'sk-ferret-'));
    ferret = new OwnFerret(await sparePort(), dir, launcher as string);
  });

  afterAll(async () => {
    await http?.close();
    await mongo?.close(true);
    await ferret?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('when the server comes up only after the first attempts, then connectMongo keeps retrying until it connects', async () => {
    const url = `mongodb://127.0.0.1:${ferret.port}/${uniqueName('sk_mongo')}`;
    const connecting = connectMongo(url, logs.logger, {
      retries: 30,
      delayMs: 100,
      maxDelayMs: 300,
      serverSelectionTimeoutMS: 300,
    });

    await waitUntil(() => logs.lines().some((l) => l.msg === 'mongo not reachable yet'));
    ferret.start();
    mongo = await connecting;

    expect(mongo.readyState).toBe(1);
    expect(logs.lines().find((l) => l.msg === 'mongo connected')?.attempts).toBeGreaterThan(1);
  }, 30_000);

  it('when the database stops, then /readyz turns 503 naming mongo; when it returns, then 200 again', async () => {
    const conn = mongo as Connection;
    const app = createHttpApp({
      service: 'mongo-test',
      logger: logs.logger,
      readiness: [mongoReadiness(conn)],
    });
    http = await startServer(app, { port: 0 });
    const ready = async () => (await fetch(`${http!.url}/readyz`)).status;
    expect(await ready()).toBe(200);

    await ferret.stop();
    const res = await fetch(`${http.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'not ready', failed: ['mongo'] });

    ferret.start();
    await waitUntil(async () => (await ready()) === 200, { timeoutMs: 20_000, intervalMs: 250 });

    // and the connection works for real again
    const Things = conn.model('Thing', new Schema({ n: Number }));
    await Things.create({ n: 1 });
    expect(await Things.countDocuments()).toBe(1);
    await conn.dropDatabase();
  }, 40_000);

  it('when nothing ever answers, then connectMongo gives up after its retries', async () => {
    const url = `mongodb://127.0.0.1:${await sparePort()}/nowhere`;

    await expect(
      connectMongo(url, logs.logger, { retries: 1, delayMs: 10, serverSelectionTimeoutMS: 200 }),
    ).rejects.toThrow();
    expect(logs.lines().some((l) => l.msg === 'mongo unreachable, giving up')).toBe(true);
  });
});

describe('connectMongo on the shared FerretDB', () => {
  it('when connected, then the connection is its own (not mongoose global) and uses the named database', async () => {
    const { logger } = captureLogs('mongo-test');
    const url = testMongoUrl('sk_mongo_own');
    const conn = await connectMongo(url, logger, { retries: 3 });
    try {
      const mongoose = (await import('mongoose')).default;
      expect(conn).not.toBe(mongoose.connection);
      expect(conn.name).toBe(url.split('/').pop());
      expect(conn.get('autoIndex')).toBe(true);
    } finally {
      await conn.dropDatabase();
      await conn.close();
    }
  });

  it('when describing a url for logs, then credentials and options are left out', () => {
    expect(describeMongoUrl('mongodb://user:pw@a:27017,b:27017/aict_auth?replicaSet=rs0')).toBe(
      'a:27017,b:27017/aict_auth',
    );
  });
});
