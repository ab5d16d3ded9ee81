import { loadConfig } from '@aict/service-kit';
import { serviceTestEnv } from '@aict/service-kit/testing';
import { configSchema } from './config';
import { startHarness, type Harness } from './test-support/harness';

jest.setTimeout(30_000);

describe('prompt service', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('when it has started on the real infrastructure, then /healthz and /readyz answer 200', async () => {
    const health = await fetch(`${h.url}/healthz`);
    const ready = await fetch(`${h.url}/readyz`);

    expect(health.status).toBe(200);
    expect(ready.status).toBe(200);
  });

  it('when an unknown route is asked for, then it answers a JSON 404', async () => {
    const res = await fetch(`${h.url}/api/nothing-here`);

    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('prompt service configuration', () => {
  it('when CONTEXT_PUBLIC_KEY is missing or a limit is wrong, then start-up names each key', () => {
    const env = serviceTestEnv('prompt', {
      CONTEXT_PUBLIC_KEY: undefined,
      REFERENCE_IMAGE_MAX_BYTES: 'ten',
    });

    expect(() => loadConfig(configSchema, env)).toThrow(
      /CONTEXT_PUBLIC_KEY is required.*REFERENCE_IMAGE_MAX_BYTES must be a number/,
    );
  });

  it('when only the shared keys are given, then the limits take their defaults', () => {
    const config = loadConfig(configSchema, serviceTestEnv('prompt'));

    expect(config).toMatchObject({
      PORT: 0,
      REFERENCE_IMAGE_MAX_BYTES: 10 * 1024 * 1024,
      REFERENCE_IMAGE_MAX_PIXELS: 25_000_000,
      MAX_PROMPTS_PER_WORKSPACE: 500,
      MAX_PUBLIC_PROMPTS: 500,
    });
  });
});
