import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderFetch, isBlockedAddressError, type ProviderFetch } from './provider-fetch';
import { providerUrlEnv } from '../config';

/** A local listener standing in for a provider, or for an internal service (MinIO…). */
async function listener() {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(req.url ?? '');
    if (req.url === '/redirect')
      res.writeHead(302, { location: `http://169.254.169.254/latest/meta-data` }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    paths,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let simulator: Awaited<ReturnType<typeof listener>>;
let internal: Awaited<ReturnType<typeof listener>>;
const fetches: ProviderFetch[] = [];

beforeAll(async () => {
  simulator = await listener();
  internal = await listener();
});
afterAll(async () => {
  await Promise.all(fetches.map((f) => f.close()));
  await Promise.all([simulator.close(), internal.close()]);
});

const make = (allowedOrigins: readonly string[] | 'any') => {
  const f = createProviderFetch({ allowedOrigins });
  fetches.push(f);
  return f.fetch;
};
const refusal = (url: string, allowed: readonly string[] = [simulator.origin]) =>
  make(allowed)(url).catch((e: unknown) => e);

describe('the provider fetch', () => {
  it("when only the simulator's origin is allowed, then a request to it goes through", async () => {
    const res = await make([simulator.origin])(`${simulator.origin}/v1/models`);

    expect(res.status).toBe(200);
  });

  it('when only the simulator is allowed, then another local port is refused and never reached', async () => {
    const error = await refusal(`http://127.0.0.1:${internal.port}/v1/models`);

    expect(isBlockedAddressError(error)).toBe(true);
    expect(internal.paths).toEqual([]);
  });

  it.each([
    ['a host name resolving to loopback', () => `http://localhost:${internal.port}/v1/models`],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${internal.port}/v1`],
    ['the IPv6 loopback', () => `http://[::1]:${internal.port}/v1`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data'],
    ['a private network address', () => 'http://10.0.0.8/v1'],
    ['a decimal loopback address', () => `http://2130706433:${internal.port}/v1`],
  ])('when the URL is %s, then it is refused', async (_what, url) => {
    const error = await refusal(url());

    expect(isBlockedAddressError(error)).toBe(true);
    expect(internal.paths).toEqual([]);
  });

  it("when the operator's own URL is used (any origin), then a local address is reached", async () => {
    const res = await make('any')(`http://localhost:${internal.port}/v1/models`);

    expect(res.status).toBe(200);
    internal.paths.length = 0;
  });

  it('when the provider redirects, then the redirect is answered, not followed', async () => {
    const res = await make([simulator.origin])(`${simulator.origin}/redirect`);

    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://169.254.169.254/latest/meta-data');
  });
});

describe('PROVIDER_URL_ALLOWED_ORIGINS', () => {
  it('when it lists origins, then they are read as origins', () => {
    const parsed = providerUrlEnv.parse({
      PROVIDER_URL_ALLOWED_ORIGINS: 'http://127.0.0.1:4191, https://llm.internal/',
    });

    expect(parsed.PROVIDER_URL_ALLOWED_ORIGINS).toEqual([
      'http://127.0.0.1:4191',
      'https://llm.internal',
    ]);
  });

  it('when it is not set, then nothing private is allowed', () => {
    expect(providerUrlEnv.parse({}).PROVIDER_URL_ALLOWED_ORIGINS).toEqual([]);
  });

  it.each(['http://127.0.0.1:4191/v1', '127.0.0.1:4191', 'ftp://host', 'http://u:p@host'])(
    'when it names %s (not an origin), then the configuration is refused',
    (value) => {
      expect(providerUrlEnv.safeParse({ PROVIDER_URL_ALLOWED_ORIGINS: value }).success).toBe(false);
    },
  );
});
