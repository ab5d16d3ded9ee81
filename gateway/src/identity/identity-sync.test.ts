import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { CONTEXT_HEADER, SESSION_COOKIE } from '@aict/contracts';
import { publicKeyOf, verifyContext } from '@aict/service-kit';
import { TEST_CONTEXT_PUBLIC_PEM } from '@aict/service-kit/testing';
import {
  frontendFixture,
  identityServices,
  isolatedVhost,
  sessionToken,
  sleep,
  startGateway,
  upstream,
  waitFor,
  waitUntilReady,
} from '../testing/fixtures';

jest.setTimeout(30_000);

describe('identity start-up: subscribe, snapshots, buffered events', () => {
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let services: Awaited<ReturnType<typeof identityServices>>;
  let service: Awaited<ReturnType<typeof upstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  let staticDir: string;

  beforeAll(async () => {
    vhost = await isolatedVhost();
    service = await upstream();
    staticDir = frontendFixture();
  });

  afterAll(async () => {
    try {
      await gateway?.shutdown('test done');
      await services?.close();
      await service?.close();
      if (staticDir) rmSync(staticDir, { recursive: true, force: true });
    } finally {
      await vhost?.dispose();
    }
  });

  it('when the services have not answered the snapshots yet, then /readyz is 503; once they have, it is 200 and events of the meantime are applied over them in order', async () => {
    const sid = randomUUID();
    services = await identityServices(vhost.url, {
      identity: {
        users: [{ id: 'u1', tokenVersion: 0, isSuperAdmin: false }],
        revokedSessions: [],
      },
      memberships: { memberships: [{ workspaceId: 1, userId: 'u1', role: 'user' }] },
    });
    gateway = await startGateway({
      AMQP_URL: vhost.url,
      serviceUrl: service.url,
      STATIC_DIR: staticDir,
    });
    const cookie = `${SESSION_COOKIE}=${sessionToken({ sub: 'u1', sid })}`;

    await sleep(300); // the gateway is asking, nobody answers
    const before = await fetch(`${gateway.http.url}/readyz`);
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({ failed: ['identity'] });
    // Events published after the gateway subscribed, before the snapshots (which, taken
    // from data that does not show them, must not undo them).
    await services.workspace.publish('membership.changed', {
      workspaceId: 1,
      userId: 'u1',
      role: 'admin',
    });
    await services.workspace.publish('membership.changed', {
      workspaceId: 2,
      userId: 'u1',
      role: 'user',
    });
    await services.workspace.publish('membership.changed', {
      workspaceId: 2,
      userId: 'u1',
      role: null,
    });
    await services.auth.publish('user.created', {
      userId: 'u2',
      username: 'u2',
      email: 'u2@example.com',
      isSuperAdmin: true,
    });
    await sleep(200);

    await services.serve();
    await waitUntilReady(gateway.http.url);

    const res = await fetch(`${gateway.http.url}/api/prompts`, {
      headers: { cookie, 'x-workspace-id': '1' },
    });
    expect(res.status).toBe(200);
    const seen = (await res.json()) as { headers: Record<string, string> };
    const context = verifyContext(
      publicKeyOf(TEST_CONTEXT_PUBLIC_PEM),
      seen.headers[CONTEXT_HEADER] as string,
    );
    expect(context).toMatchObject({ uid: 'u1', ws: 1, role: 'admin' });
    expect(context.roles).toEqual({ '1': 'admin' });
    const u2 = await fetch(`${gateway.http.url}/api/prompts`, {
      headers: { cookie: `${SESSION_COOKIE}=${sessionToken({ sub: 'u2' })}` },
    });
    expect(u2.status).toBe(200);
  });

  it('when the broker closes the gateway’s connection, then /readyz drops until the snapshots are loaded again', async () => {
    if (!gateway) throw new Error('the previous test starts the gateway');
    const url = gateway.http.url;
    await services.stopServing();
    const asked = services.asked.identity;

    await closeGatewayConnection(new URL(vhost.url).pathname.slice(1));

    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 503, 5000, 'not ready');
    await sleep(300);
    expect((await fetch(`${url}/readyz`)).status).toBe(503); // connected again, snapshots missing
    await services.serve();
    await waitUntilReady(url, 15_000);
    expect(services.asked.identity).toBeGreaterThan(asked);
  });
});

/** Has the broker close the gateway's connections to `vhost` (as a network loss would). */
async function closeGatewayConnection(vhost: string) {
  const listing = await rabbitmqctl('list_connections', '-q', 'pid', 'vhost', 'client_properties');
  const pids = listing
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([, host, props]) => host === vhost && props?.includes('{"connection_name","gateway"}'))
    .map(([pid]) => pid as string);
  if (pids.length === 0) throw new Error('no gateway connection');
  for (const pid of pids) await rabbitmqctl('close_connection', pid, 'test: connection lost');
}

function rabbitmqctl(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('rabbitmqctl', args, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}
