import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_COOKIE } from '@aict/contracts';
import { serviceTestEnv, TEST_CONTEXT_KEYS } from '@aict/service-kit/testing';
import { start as startAuth } from '@aict/auth-service/main';
import { start } from './main';
import {
  SESSION_KEYS,
  identityServices,
  isolatedVhost,
  pem,
  sessionToken,
  waitUntilReady,
} from './testing/fixtures';

jest.setTimeout(30_000);

/** A real HTTP server that answers with the headers it received (what a service would see). */
function headerEcho(): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ url: req.url, headers: req.headers }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => server.close(),
      }),
    ),
  );
}

function frontendFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-static-'));
  mkdirSync(join(dir, 'shell', 'dist'), { recursive: true });
  writeFileSync(join(dir, 'shell', 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'shell', 'dist', 'main.3f2a9c1b.js'), 'console.log(1)');
  mkdirSync(join(dir, 'chat', 'dist'), { recursive: true });
  writeFileSync(join(dir, 'chat', 'dist', 'remoteEntry.js'), 'var chat;');
  return dir;
}

describe('gateway', () => {
  let gateway: Awaited<ReturnType<typeof start>>;
  let auth: Awaited<ReturnType<typeof startAuth>>;
  let echo: Awaited<ReturnType<typeof headerEcho>>;
  let staticDir: string;
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let identity: Awaited<ReturnType<typeof identityServices>>;
  const down = 'http://127.0.0.1:9'; // nothing listens on the discard port
  // A member of workspace 7, signed in.
  const cookie = `${SESSION_COOKIE}=${sessionToken({ sub: 'member-7' })}`;

  beforeAll(async () => {
    vhost = await isolatedVhost();
    identity = await identityServices(vhost.url, {
      identity: {
        users: [{ id: 'member-7', tokenVersion: 0, isSuperAdmin: false }],
        revokedSessions: [],
      },
      memberships: { memberships: [{ workspaceId: 7, userId: 'member-7', role: 'user' }] },
    });
    await identity.serve();
    [auth, echo] = await Promise.all([
      startAuth({
        // The keys the auth service signs sessions with (once it does).
        env: serviceTestEnv('auth', {
          JWT_PRIVATE_KEY: pem(SESSION_KEYS.privateKey),
          JWT_PUBLIC_KEY: pem(SESSION_KEYS.publicKey),
        }),
        exit: () => {},
      }),
      headerEcho(),
    ]);
    staticDir = frontendFixture();
    gateway = await start({
      exit: () => {},
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PORT: '0',
        STATIC_DIR: staticDir,
        AUTH_SERVICE_URL: auth.http.url,
        WORKSPACE_SERVICE_URL: echo.url,
        PROMPT_SERVICE_URL: down,
        CONTENT_SERVICE_URL: down,
        GENERATION_SERVICE_URL: down,
        AMQP_URL: vhost.url,
        JWT_PUBLIC_KEY: pem(SESSION_KEYS.publicKey),
        CONTEXT_PRIVATE_KEY: pem(TEST_CONTEXT_KEYS.privateKey),
      },
    });
    await waitUntilReady(gateway.http.url);
  });
  afterAll(async () => {
    try {
      await gateway?.shutdown('test done');
      await auth?.shutdown('test done');
      await identity?.close();
      echo?.close();
      if (staticDir) rmSync(staticDir, { recursive: true, force: true });
    } finally {
      await vhost?.dispose();
    }
  });

  it('when a request goes through, then the service answers and the request id crosses', async () => {
    const requestId = 'e2e7a9d0-1c2b-4f5e-8a9b-0c1d2e3f4a5b';
    const res = await fetch(`${gateway.http.url}/api/user`, {
      headers: { 'x-request-id': requestId },
    });

    expect(res.headers.get('x-request-id')).toBe(requestId);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('when a client sends identity headers, then the service never sees them', async () => {
    const res = await fetch(`${gateway.http.url}/api/workspaces?x=1`, {
      headers: {
        cookie,
        'x-aict-context': 'forged',
        'x-user-id': '1',
        'x-workspace-role': 'admin',
        'x-workspace-id': '7',
      },
    });
    const seen = (await res.json()) as { url: string; headers: Record<string, string> };

    expect(seen.url).toBe('/api/workspaces?x=1');
    expect(seen.headers['x-aict-context']).not.toBe('forged');
    expect(seen.headers['x-user-id']).toBeUndefined();
    expect(seen.headers['x-workspace-role']).toBeUndefined();
    expect(seen.headers['x-workspace-id']).toBe('7');
  });

  it('when the owning service is down, then the answer is a JSON 502, not a hang or a crash', async () => {
    const res = await fetch(`${gateway.http.url}/api/prompts`, { headers: { cookie } });

    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'GATEWAY.UPSTREAM_UNAVAILABLE' });
  });

  it('when a client route is opened, then the shell page comes with a CSP that allows no inline script', async () => {
    const res = await fetch(`${gateway.http.url}/prompts/123`);
    const csp = res.headers.get('content-security-policy') ?? '';

    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('when a hashed asset is fetched, then it is cached for a year; a remote entry is not', async () => {
    const asset = await fetch(`${gateway.http.url}/main.3f2a9c1b.js`);
    const entry = await fetch(`${gateway.http.url}/remotes/chat/remoteEntry.js`);
    const missing = await fetch(`${gateway.http.url}/remotes/chat/nothing.js`);

    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(entry.status).toBe(200);
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    expect(missing.status).toBe(404);
  });

  it('when an unknown API path is asked for, then it is a JSON 404, not the shell page', async () => {
    const res = await fetch(`${gateway.http.url}/api/unknown`);

    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
