import { serviceTestEnv } from '@aict/service-kit/testing';
import { start } from './main';
import { Writable } from 'node:stream';
import { startHarness, superAdmin, waitFor, type Harness } from './test-support/harness';

const silent = new Writable({ write: (_chunk, _enc, done) => done() });

jest.setTimeout(30_000);

describe('workspace service', () => {
  let t: Harness;

  beforeAll(async () => {
    t = await startHarness();
  });
  afterAll(() => t.stop());

  it('when it has started on the real infrastructure, then /healthz and /readyz answer 200', async () => {
    const health = await fetch(`${t.url}/healthz`);
    const ready = await fetch(`${t.url}/readyz`);

    expect(health.status).toBe(200);
    expect(ready.status).toBe(200);
  });

  it('when an unknown route is asked for, then it answers a JSON 404', async () => {
    const res = await fetch(`${t.url}/api/nothing-here`);

    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('when an API route is called without the gateway context, then it answers 401', async () => {
    const res = await t.call('GET', '/api/user/workspaces', { as: null });

    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'AUTH.UNAUTHENTICATED' });
  });

  it('when the service has started, then workspace 1 "Default" exists and its event is published', async () => {
    const res = await t.call('GET', '/api/workspaces', { as: superAdmin() });

    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ id: 1, name: 'Default', slug: 'default' });
    // workspace.created left the outbox (published before this test listened).
    await waitFor(async () => {
      const doc = await t.db.collection('workspaces').findOne({ _id: 1 } as never);
      return doc && !(doc._outbox?.length > 0);
    }, 'the outbox of workspace 1 to be published');
  });

  it('when a second instance starts on the same database, then workspace 1 is not created twice', async () => {
    const second = await start({ env: { ...t.env, PORT: '0' }, exit: () => {} });
    try {
      const docs = await t.db
        .collection('workspaces')
        .find({ _id: 1 } as never)
        .toArray();
      expect(docs).toHaveLength(1);
    } finally {
      await second.shutdown('test done');
    }
  });
});

describe('workspace service configuration', () => {
  it('when the encryption key is missing or not 32 bytes, then start-up stops naming the key', async () => {
    const exit = jest.fn();
    const bad = serviceTestEnv('workspace', {
      SETTINGS_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64'),
    });

    await expect(start({ env: bad, exit, logDestination: silent })).rejects.toThrow(
      /SETTINGS_ENCRYPTION_KEY/,
    );
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('when CONTEXT_PUBLIC_KEY is missing, then start-up stops naming it', async () => {
    const exit = jest.fn();
    const env = serviceTestEnv('workspace', {
      SETTINGS_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
      CONTEXT_PUBLIC_KEY: undefined,
    });

    await expect(start({ env, exit, logDestination: silent })).rejects.toThrow(
      /CONTEXT_PUBLIC_KEY is required/,
    );
  });
});
