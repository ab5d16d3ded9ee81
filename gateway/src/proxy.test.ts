import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { SESSION_COOKIE } from '@aict/contracts';
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
} from './testing/fixtures';

jest.setTimeout(30_000);

/** A GET through the gateway that reports each chunk as it arrives (no buffering here). */
function stream(url: string, cookie: string) {
  const chunks: string[] = [];
  const done = new Promise<{ status: number; headers: http.IncomingHttpHeaders }>(
    (resolve, reject) => {
      const req = http.get(
        url,
        { headers: { cookie, accept: 'text/event-stream', 'accept-encoding': 'gzip, br' } },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    },
  );
  return { chunks, done, text: () => chunks.join('') };
}

describe('gateway: streams', () => {
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let services: Awaited<ReturnType<typeof identityServices>>;
  let service: Awaited<ReturnType<typeof upstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let staticDir: string;
  const cookie = `${SESSION_COOKIE}=${sessionToken({ sub: 'streamer' })}`;

  beforeAll(async () => {
    vhost = await isolatedVhost();
    services = await identityServices(vhost.url, {
      identity: {
        users: [{ id: 'streamer', tokenVersion: 0, isSuperAdmin: false }],
        revokedSessions: [],
      },
      memberships: { memberships: [] },
    });
    await services.serve();
    service = await upstream();
    staticDir = frontendFixture();
    gateway = await startGateway({
      AMQP_URL: vhost.url,
      serviceUrl: service.url,
      STATIC_DIR: staticDir,
      // An idle timeout: a stream that keeps sending must outlive it.
      UPSTREAM_TIMEOUT_MS: '1000',
    });
    await waitUntilReady(gateway.http.url);
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

  it('when a service writes an event, waits, then writes another, then the client has the first before the second is written', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let secondWritten = false;
    service.on('/api/generate', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('data: {"delta":"first"}\n\n');
      void released.then(() => {
        secondWritten = true;
        res.end('data: {"delta":"second"}\n\n');
      });
    });

    const sse = stream(`${gateway.http.url}/api/generate`, cookie);
    await waitFor(() => sse.text().includes('first'), 5000, 'the first event through the gateway');
    expect(secondWritten).toBe(false);
    release();
    const { status, headers } = await sse.done;

    expect(status).toBe(200);
    expect(sse.text()).toBe('data: {"delta":"first"}\n\ndata: {"delta":"second"}\n\n');
    expect(headers['content-type']).toBe('text/event-stream');
    expect(headers['content-encoding']).toBeUndefined();
    expect(headers['x-accel-buffering']).toBe('no');
  });

  it('when a stream has sent its headers but no event yet, then the client already has the headers', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    service.on('/api/generate-reply', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      void released.then(() => res.end('data: done\n\n'));
    });

    const status = await new Promise<number>((resolve, reject) => {
      const req = http.get(
        `${gateway.http.url}/api/generate-reply`,
        { headers: { cookie } },
        (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
        },
      );
      req.on('error', reject);
    });
    release();

    expect(status).toBe(200);
  });

  it('when a stream lasts longer than the upstream timeout but keeps sending, then it is not cut', async () => {
    service.on('/api/generate-with-image', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        n++;
        if (n < 6) res.write(`data: ${n}\n\n`);
        else {
          clearInterval(timer);
          res.end('data: end\n\n');
        }
      }, 300); // 1.8 s in all, never 1 s silent
    });

    const sse = stream(`${gateway.http.url}/api/generate-with-image`, cookie);
    const { status } = await sse.done;

    expect(status).toBe(200);
    expect(sse.text()).toContain('data: 5\n\ndata: end\n\n');
  });

  it('when a service goes silent mid-answer for longer than the upstream timeout, then the client sees the answer cut', async () => {
    service.on('/api/uploads/chat-attachments', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n'); // then nothing, ever
    });

    const sse = stream(`${gateway.http.url}/api/uploads/chat-attachments`, cookie);
    const outcome = await sse.done.then(
      () => 'ended normally',
      () => 'cut',
    );

    expect(outcome).toBe('cut');
    expect(sse.text()).toBe('data: 1\n\n');
  });

  it('when the client goes away in the middle of a stream, then the request to the service is closed too', async () => {
    let closed = false;
    service.on('/api/contents/live', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: hello\n\n');
      const timer = setInterval(() => res.write(': keep-alive\n\n'), 100);
      req.socket.on('close', () => {
        closed = true;
        clearInterval(timer);
      });
    });

    const req = http.get(
      `${gateway.http.url}/api/contents/live`,
      { headers: { cookie } },
      (res) => {
        res.once('data', () => req.destroy());
      },
    );
    req.on('error', () => undefined);

    await waitFor(() => closed, 5000, 'the upstream request to close');
    await sleep(10);
  });
});

describe('gateway: what passes through', () => {
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let services: Awaited<ReturnType<typeof identityServices>>;
  let service: Awaited<ReturnType<typeof upstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let staticDir: string;
  const cookie = `${SESSION_COOKIE}=${sessionToken({ sub: 'uploader' })}`;

  beforeAll(async () => {
    vhost = await isolatedVhost();
    services = await identityServices(vhost.url, {
      identity: {
        users: [{ id: 'uploader', tokenVersion: 0, isSuperAdmin: false }],
        revokedSessions: [],
      },
      memberships: { memberships: [{ workspaceId: 1, userId: 'uploader', role: 'user' }] },
    });
    await services.serve();
    service = await upstream();
    // What the service received: method, headers and the sha-256 and size of the body.
    service.on('/api/uploads/chat-attachments', (req, res) => {
      const hash = createHash('sha256');
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
      });
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
        res.setHeader('connection', 'close');
        res.end(JSON.stringify({ headers: req.headers, sha256: hash.digest('hex'), size }));
      });
    });
    staticDir = frontendFixture();
    gateway = await startGateway({
      AMQP_URL: vhost.url,
      serviceUrl: service.url,
      STATIC_DIR: staticDir,
    });
    await waitUntilReady(gateway.http.url);
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

  function post(body: Buffer, headers: Record<string, string>, chunked: boolean) {
    return new Promise<{
      status: number;
      headers: http.IncomingHttpHeaders;
      json: Record<string, unknown>;
    }>((resolve, reject) => {
      const req = http.request(
        `${gateway.http.url}/api/uploads/chat-attachments`,
        {
          method: 'POST',
          headers: {
            cookie,
            'x-workspace-id': '1',
            ...headers,
            ...(chunked ? {} : { 'content-length': String(body.length) }),
          },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              json: JSON.parse(Buffer.concat(parts).toString()),
            }),
          );
        },
      );
      req.on('error', reject);
      if (chunked) {
        // Written in pieces, with pauses: a stream, not one buffer.
        let offset = 0;
        const next = () => {
          if (offset >= body.length) return req.end();
          req.write(body.subarray(offset, offset + 256 * 1024));
          offset += 256 * 1024;
          setTimeout(next, 5);
        };
        next();
      } else req.end(body);
    });
  }

  it.each([
    ['with a content-length', false],
    ['chunked, written in pieces', true],
  ])(
    'when a client uploads a multipart body %s, then the service receives the very same bytes',
    async (_how, chunked) => {
      const body = Buffer.concat([
        Buffer.from(
          '--b\r\ncontent-disposition: form-data; name="files"; filename="x.bin"\r\n\r\n',
        ),
        randomBytes(3 * 1024 * 1024),
        Buffer.from('\r\n--b--\r\n'),
      ]);

      const { status, json } = await post(
        body,
        { 'content-type': 'multipart/form-data; boundary=b' },
        chunked,
      );

      expect(status).toBe(200);
      expect(json).toMatchObject({
        sha256: createHash('sha256').update(body).digest('hex'),
        size: body.length,
      });
      expect((json.headers as Record<string, string>)['content-type']).toBe(
        'multipart/form-data; boundary=b',
      );
    },
  );

  it('when a request path holds a backslash, then the service receives the very path the gateway judged (the legacy URL parser made it a slash)', async () => {
    const target = '/api/user/a\\b?q=c\\d';
    const seen = await new Promise<{ status: number; json: { url?: string } }>(
      (resolve, reject) => {
        // As sent: a URL string would be re-encoded by the client itself.
        const { hostname, port } = new URL(gateway.http.url);
        const req = http.get({ hostname, port, path: target, headers: { cookie } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              json: JSON.parse(Buffer.concat(parts).toString()),
            }),
          );
        });
        req.on('error', reject);
      },
    );

    expect(seen.status).toBe(200);
    expect(seen.json.url).toBe(target);
  });

  it('when a request goes through, then hop-by-hop headers stay behind, the client address is added, and every cookie the service sets arrives', async () => {
    const { status, headers, json } = await post(
      Buffer.from('{}'),
      {
        'content-type': 'application/json',
        'x-forwarded-for': '203.0.113.9',
        'proxy-authorization': 'Basic abc',
        te: 'trailers',
        'keep-alive': 'timeout=5',
      },
      false,
    );
    const seen = json.headers as Record<string, string>;

    expect(status).toBe(200);
    expect(seen['proxy-authorization']).toBeUndefined();
    expect(seen['te']).toBeUndefined();
    expect(seen['keep-alive']).toBeUndefined();
    expect(seen['x-forwarded-for']).toBe('203.0.113.9,127.0.0.1');
    expect(headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(headers['connection']).not.toBe('close'); // the service's connection is its own business
  });

  it('when the gateway answers /api (the service or itself), then the security headers are there', async () => {
    const passed = await fetch(`${gateway.http.url}/api/user`, { headers: { cookie } });
    const refused = await fetch(`${gateway.http.url}/api/prompts`);

    for (const res of [passed, refused]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(refused.status).toBe(401);
  });
});
