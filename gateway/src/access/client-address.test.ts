import { rmSync } from 'node:fs';
import { CONTEXT_HEADER, type TrustedContext } from '@aict/contracts';
import { publicKeyOf, verifyContext } from '@aict/service-kit';
import { TEST_CONTEXT_PUBLIC_PEM } from '@aict/service-kit/testing';
import {
  frontendFixture,
  identityServices,
  isolatedVhost,
  startGateway,
  upstream,
  waitUntilReady,
} from '../testing/fixtures';

jest.setTimeout(30_000);

const CONTEXT_PUBLIC_KEY = publicKeyOf(TEST_CONTEXT_PUBLIC_PEM);

/**
 * The client address the services get (`ip` of the signed context; the auth service's
 * sign-in limits are keyed by it): the socket's, unless TRUSTED_PROXY_HOPS names how many
 * proxies in front of the gateway append to X-Forwarded-For.
 */
describe('gateway: the client address in the trusted context', () => {
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let services: Awaited<ReturnType<typeof identityServices>>;
  let service: Awaited<ReturnType<typeof upstream>>;
  let direct: Awaited<ReturnType<typeof startGateway>>;
  let behindIngress: Awaited<ReturnType<typeof startGateway>>;
  let staticDir: string;

  beforeAll(async () => {
    vhost = await isolatedVhost();
    services = await identityServices(vhost.url, {
      identity: { users: [], revokedSessions: [] },
      memberships: { memberships: [] },
    });
    await services.serve();
    service = await upstream();
    staticDir = frontendFixture();
    const env = { AMQP_URL: vhost.url, serviceUrl: service.url, STATIC_DIR: staticDir };
    direct = await startGateway(env);
    behindIngress = await startGateway({ ...env, TRUSTED_PROXY_HOPS: '1' });
    await Promise.all([waitUntilReady(direct.http.url), waitUntilReady(behindIngress.http.url)]);
  });

  afterAll(async () => {
    try {
      await direct?.shutdown('test done');
      await behindIngress?.shutdown('test done');
      await services?.close();
      await service?.close();
      if (staticDir) rmSync(staticDir, { recursive: true, force: true });
    } finally {
      await vhost?.dispose();
    }
  });

  /** Signs in (a public route) through `gateway`; the `ip` the service was told. */
  async function ipSeenVia(
    gateway: { http: { url: string } },
    forwardedFor?: string,
  ): Promise<string> {
    const before = service.requests.length;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
    const res = await fetch(`${gateway.http.url}/api/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: 'someone', password: 'secret' }),
    });
    await res.arrayBuffer();
    const token = service.requests[before]?.headers[CONTEXT_HEADER];
    if (typeof token !== 'string') throw new Error('no context reached the service');
    return (verifyContext(CONTEXT_PUBLIC_KEY, token) as TrustedContext).ip;
  }

  it('when no proxy is trusted and a client sends X-Forwarded-For, then it is ignored: the socket address counts', async () => {
    expect(await ipSeenVia(direct, '203.0.113.7')).toBe('127.0.0.1');
  });

  it('when one proxy hop is trusted, then the address that proxy saw (the last X-Forwarded-For entry) counts, not what the client claimed before it', async () => {
    // The client claims 198.51.100.1; the ingress appends the address it really saw.
    const ip = await ipSeenVia(behindIngress, '198.51.100.1, 203.0.113.7');

    expect(ip).toBe('203.0.113.7');
  });

  it('when one proxy hop is trusted and two clients come through it, then each gets its own address', async () => {
    const first = await ipSeenVia(behindIngress, '203.0.113.7');
    const second = await ipSeenVia(behindIngress, '203.0.113.8');

    expect([first, second]).toEqual(['203.0.113.7', '203.0.113.8']);
  });

  it('when one proxy hop is trusted but the request came without X-Forwarded-For, then the socket address counts', async () => {
    expect(await ipSeenVia(behindIngress)).toBe('127.0.0.1');
  });
});
