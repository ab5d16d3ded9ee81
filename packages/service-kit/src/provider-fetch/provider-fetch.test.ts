import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderFetch, isBlockedAddressError, type ProviderFetch } from './provider-fetch';

let server: Server;
let port: number;
const fetches: ProviderFetch[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') res.writeHead(302, { location: '/target' }).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all(fetches.map((f) => f.close()));
  await new Promise((resolve) => server.close(resolve));
});

const make = (publicOnly: boolean) => {
  const f = createProviderFetch({ publicOnly });
  fetches.push(f);
  return f.fetch;
};

describe('the provider fetch', () => {
  it('when public addresses only are allowed, then a host name resolving to loopback is refused at connect time', async () => {
    const error = await make(true)(`http://localhost:${port}/v1/models`).catch((e: unknown) => e);

    expect(isBlockedAddressError(error)).toBe(true);
  });

  it('when public addresses only are allowed, then a literal private IP is refused', async () => {
    const error = await make(true)(`http://127.0.0.1:${port}/v1/models`).catch((e: unknown) => e);

    expect(isBlockedAddressError(error)).toBe(true);
  });

  it('when the URL is trusted, then the request goes through', async () => {
    const res = await make(false)(`http://localhost:${port}/v1/models`);

    expect(res.status).toBe(200);
  });

  it('when the provider redirects, then the redirect is answered, not followed', async () => {
    const res = await make(false)(`http://127.0.0.1:${port}/redirect`);

    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/target');
  });
});
