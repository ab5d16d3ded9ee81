import { Writable } from 'node:stream';
import { baseServiceEnv, envPort } from './config';
import { createHttpApp } from './http/app';
import { runService } from './service';
import { createObjectStore } from './storage';
import { TEST_MINIO, captureLogs, testMongoUrl, uniqueName } from './test-support';

function memoryDestination() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { destination, lines };
}

describe('runService', () => {
  const bucket = uniqueName('sk-service', '-');

  afterAll(async () => {
    const store = createObjectStore({ ...TEST_MINIO, bucket }, captureLogs().logger);
    if (await store.client.bucketExists(bucket)) {
      for (const key of await store.list('')) await store.remove(key);
      await store.client.removeBucket(bucket);
    }
  });

  it('when the config is valid, then mongo, minio and rabbitmq are connected, /readyz is 200, and shutdown closes all and exits 0', async () => {
    const logs = memoryDestination();
    const exit = jest.fn();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      MONGO_URL: testMongoUrl('sk_service'),
      AMQP_URL: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672/aict-test',
      MINIO_ENDPOINT: TEST_MINIO.endpoint,
      MINIO_ACCESS_KEY: TEST_MINIO.accessKey,
      MINIO_SECRET_KEY: TEST_MINIO.secretKey,
      MINIO_BUCKET: bucket,
    };
    const stopped: string[] = [];

    const service = await runService({
      name: 'sktest',
      configSchema: baseServiceEnv.extend({ PORT: envPort.default(4199) }),
      env,
      exit,
      logDestination: logs.destination,
      start: (config, { logger, readiness, onStop }) => {
        onStop('consumers', () => {
          stopped.push('consumers');
        });
        return createHttpApp({
          service: 'sktest',
          logger,
          readiness,
          routes: (app) => app.get('/port', (_req, res) => res.json({ configured: config.PORT })),
        });
      },
    });

    const ready = await fetch(`${service.http.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).checks).toEqual({ mongo: 'ok', minio: 'ok', rabbitmq: 'ok' });
    expect(await (await fetch(`${service.http.url}/port`)).json()).toEqual({ configured: 0 });
    expect(await service.deps.storage?.client.bucketExists(bucket)).toBe(true);

    const mongo = service.deps.mongo!;
    await mongo.dropDatabase();
    await service.shutdown('test');

    expect(exit).toHaveBeenCalledWith(0);
    expect(stopped).toEqual(['consumers']);
    expect(mongo.readyState).toBe(0);
    expect(service.deps.bus?.ready()).toBe(false);
    await expect(fetch(`${service.http.url}/healthz`)).rejects.toThrow();
    const steps = logs
      .lines()
      .filter((l) => l.msg === 'shutdown step done')
      .map((l) => l.step);
    expect(steps).toEqual(['http', 'consumers', 'service', 'amqp', 'mongo']);
  }, 30_000);

  it('when the config is wrong, then it logs one message naming every bad key and exits 1', async () => {
    const logs = memoryDestination();
    const exit = jest.fn();

    await expect(
      runService({
        name: 'sktest',
        configSchema: baseServiceEnv,
        env: { PORT: 'x', MINIO_BUCKET: 'b' },
        exit,
        logDestination: logs.destination,
        start: () => {
          throw new Error('must not start');
        },
      }),
    ).rejects.toThrow('Invalid configuration');

    expect(exit).toHaveBeenCalledWith(1);
    const fatal = logs.lines().find((l) => l.level === 'fatal');
    expect(fatal?.msg).toBe(
      'Invalid configuration: PORT must be a number; MONGO_URL is required; AMQP_URL is required; ' +
        'MINIO_ENDPOINT is required; MINIO_ACCESS_KEY is required; MINIO_SECRET_KEY is required; ' +
        'MINIO_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots or hyphens)',
    );
  });
});
