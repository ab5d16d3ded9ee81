import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestConnectionResponse } from '@aict/contracts';
import { startProviderSim, type ProviderSim } from '@aict/provider-sim';
import { startHarness, superAdmin, type Harness } from '../test-support/harness';

jest.setTimeout(30_000);

// The local run's set-up: the simulator is the one private origin a base URL may name.
const sa = superAdmin();
let t: Harness;
let sim: ProviderSim;
/** Another local service (as MinIO or a database would be): it must never be reached. */
let internal: Server;
let internalUrl: string;
const internalRequests: Array<{ url: string; authorization?: string }> = [];

beforeAll(async () => {
  sim = await startProviderSim({ port: 0 });
  internal = createServer((req, res) => {
    internalRequests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/v1`;
  t = await startHarness({
    OPENAI_BASE_URL: sim.url,
    PROVIDER_URL_ALLOWED_ORIGINS: sim.origin,
    PROVIDER_TEST_TIMEOUT_MS: '1000',
  });
});
afterAll(async () => {
  await t.stop();
  await sim.close();
  await new Promise((resolve) => internal.close(resolve));
});

const keyOf = (label: string) => `sk-${label}-${Math.random().toString(36).slice(2, 12)}-abcd1234`;

const saveBaseUrl = (value: string) =>
  t.call('PUT', '/api/settings/openai_base_url', { as: sa, body: { value } });

async function testConnection() {
  const res = await t.call('POST', '/api/test-openai-connection', { as: sa, body: {} });
  expect(res.status).toBe(200);
  return TestConnectionResponse.parse(res.body);
}

/** A base URL stored before the guard existed (or by hand): written straight to the database. */
async function storeBaseUrlDirectly(value: string) {
  const saved = await saveBaseUrl(sim.url);
  expect(saved.status).toBe(200);
  await t.settled('settings', 'global:openai_base_url');
  await t.db
    .collection('settings')
    .updateOne({ _id: 'global:openai_base_url' } as never, { $set: { value } });
}

describe('provider base URLs when only the simulator is allowed', () => {
  it.each([
    ["MinIO's port", 'http://127.0.0.1:9000/v1'],
    ['the cloud metadata address', 'http://169.254.169.254/latest'],
    ['the simulator by another name', () => sim.url.replace('127.0.0.1', 'localhost')],
    ['an IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]:9000/v1'],
  ])('when the base URL names %s, then saving it is refused', async (_what, value) => {
    const res = await saveBaseUrl(typeof value === 'string' ? value : value());

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PROVIDER.URL_NOT_ALLOWED');
  });

  it('when the base URL names another local port, then saving it is refused and nothing reaches that port', async () => {
    const res = await saveBaseUrl(internalUrl);

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PROVIDER.URL_NOT_ALLOWED');
    expect(internalRequests).toEqual([]);
  });

  it("when the base URL is the simulator's, then it is saved and Test connection reaches it", async () => {
    await t.call('PUT', '/api/settings/openai_api_key', { as: sa, body: { value: keyOf('sim') } });

    const saved = await saveBaseUrl(sim.url);
    const result = await testConnection();

    expect(saved.status).toBe(200);
    expect(result.success).toBe(true);
    expect(result.message).toContain(`at ${sim.origin}`);
  });

  it.each([
    ['another local port', () => internalUrl],
    ["MinIO's port", () => 'http://127.0.0.1:9000/v1'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest'],
  ])(
    'when a stored base URL names %s, then Test connection refuses to connect and the key goes nowhere',
    async (_what, url) => {
      const key = keyOf('ssrf');
      await t.call('PUT', '/api/settings/openai_api_key', { as: sa, body: { value: key } });
      await storeBaseUrlDirectly(url());

      const result = await testConnection();

      expect(result).toEqual({
        success: false,
        message: `The AI provider address ${new URL(url()).origin} resolves to a private, loopback or link-local address, which is not allowed.`,
      });
      expect(internalRequests).toEqual([]);
    },
  );
});
