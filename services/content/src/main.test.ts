import { dropTestDatabase, serviceTestEnv } from '@aict/service-kit/testing';
import { start } from './main';

describe('content service', () => {
  const env = serviceTestEnv('content');
  let service: Awaited<ReturnType<typeof start>>;

  beforeAll(async () => {
    service = await start({ env, exit: () => {} });
  });
  afterAll(async () => {
    await service.shutdown('test done');
    await dropTestDatabase(env.MONGO_URL);
  });

  it('when it has started on the real infrastructure, then /healthz and /readyz answer 200', async () => {
    const health = await fetch(`${service.http.url}/healthz`);
    const ready = await fetch(`${service.http.url}/readyz`);

    expect(health.status).toBe(200);
    expect(ready.status).toBe(200);
  });

  it('when an unknown route is asked for, then it answers a JSON 404', async () => {
    const res = await fetch(`${service.http.url}/api/nothing-here`);

    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
