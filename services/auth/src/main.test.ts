import { generateKeyPairSync } from 'node:crypto';
import mongoose from 'mongoose';
import { serviceTestEnv } from '@aict/service-kit/testing';
import { start } from './main';
import {
  createTestVhost,
  TEST_JWT_PRIVATE_PEM,
  TEST_SUPER_ADMIN,
  type TestVhost,
} from './test-support/auth-test-kit';

jest.setTimeout(30_000);

let vhost: TestVhost;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  vhost = await createTestVhost();
  env = serviceTestEnv('auth', {
    AMQP_URL: vhost.url,
    JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_PEM,
    SUPERADMIN_USERNAME: TEST_SUPER_ADMIN.username,
    SUPERADMIN_EMAIL: TEST_SUPER_ADMIN.email,
    SUPERADMIN_PASSWORD: TEST_SUPER_ADMIN.password,
  });
});
afterAll(async () => {
  const connection = await mongoose.createConnection(env.MONGO_URL!).asPromise();
  await connection.dropDatabase();
  await connection.close();
  await vhost.remove();
});

async function superAdminsIn(url: string) {
  const connection = await mongoose.createConnection(url).asPromise();
  try {
    return await connection
      .collection('users')
      .find({ isSuperAdmin: true }, { projection: { username: 1 } })
      .toArray();
  } finally {
    await connection.close();
  }
}

describe('auth service', () => {
  it('when it has started on the real infrastructure, then /healthz and /readyz answer 200', async () => {
    const service = await start({ env, exit: () => {} });
    try {
      const health = await fetch(`${service.http.url}/healthz`);
      const ready = await fetch(`${service.http.url}/readyz`);
      const unknown = await fetch(`${service.http.url}/api/nothing-here`);

      expect(health.status).toBe(200);
      expect(ready.status).toBe(200);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await service.shutdown('test done');
    }
  });

  it('when it starts again, and again with another seed, then there is still exactly one super admin', async () => {
    const first = await start({ env, exit: () => {} });
    await first.shutdown('restart');
    const second = await start({
      env: {
        ...env,
        SUPERADMIN_USERNAME: 'another-admin',
        SUPERADMIN_EMAIL: 'another@example.com',
      },
      exit: () => {},
    });
    await second.shutdown('test done');

    const superAdmins = await superAdminsIn(env.MONGO_URL!);

    expect(superAdmins.map((u) => u.username)).toEqual([TEST_SUPER_ADMIN.username]);
  });

  it('when two instances start at once on an empty database, then one super admin is seeded', async () => {
    const fresh = serviceTestEnv('auth', {
      AMQP_URL: vhost.url,
      JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_PEM,
      SUPERADMIN_USERNAME: TEST_SUPER_ADMIN.username,
      SUPERADMIN_EMAIL: TEST_SUPER_ADMIN.email,
      SUPERADMIN_PASSWORD: TEST_SUPER_ADMIN.password,
    });
    const both = await Promise.all([
      start({ env: fresh, exit: () => {} }),
      start({ env: fresh, exit: () => {} }),
    ]);
    await Promise.all(both.map((service) => service.shutdown('test done')));

    const superAdmins = await superAdminsIn(fresh.MONGO_URL!);
    const connection = await mongoose.createConnection(fresh.MONGO_URL!).asPromise();
    await connection.dropDatabase();
    await connection.close();

    expect(superAdmins).toHaveLength(1);
  });
});

describe('configuration', () => {
  async function problemsOf(overrides: Record<string, string | undefined>) {
    const exit = jest.fn();
    const error = await start({
      env: { ...env, ...overrides },
      exit,
      logDestination: { write: () => undefined },
    }).catch((err: unknown) => err);
    expect(exit).toHaveBeenCalledWith(1);
    return (error as { problems: string[] }).problems;
  }

  it('when JWT_PRIVATE_KEY is missing or not a P-256 key, then it does not start and names it', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();

    expect(await problemsOf({ JWT_PRIVATE_KEY: undefined })).toEqual([
      'JWT_PRIVATE_KEY is required',
    ]);
    expect(await problemsOf({ JWT_PRIVATE_KEY: rsa })).toEqual([
      'JWT_PRIVATE_KEY must be a PEM private key on the P-256 curve (ES256)',
    ]);
  });

  it('when only part of the super-admin seed is given, then it names the missing keys', async () => {
    const problems = await problemsOf({
      SUPERADMIN_EMAIL: undefined,
      SUPERADMIN_PASSWORD: undefined,
    });

    expect(problems).toEqual(['SUPERADMIN_EMAIL is required', 'SUPERADMIN_PASSWORD is required']);
  });
});
