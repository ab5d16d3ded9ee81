import { rmSync } from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
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

const cookie = `${SESSION_COOKIE}=${sessionToken({ sub: 'slowpoke' })}`;

interface RawAnswer {
  /** Everything the gateway wrote back before it closed the connection. */
  text: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): RawAnswer {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const i = line.indexOf(':');
      return [line.slice(0, i).toLowerCase(), line.slice(i + 1).trim()];
    }),
  );
  return { text, status: Number(statusLine.split(' ')[1] ?? 0), headers, body };
}

/**
 * A client on a raw socket: writes `head`, then each of `chunks` every `everyMs` (until the
 * connection closes), and resolves with what came back once the gateway closes it.
 */
function rawClient(port: number, head: string, chunks: Array<string | Buffer> = [], everyMs = 0) {
  return new Promise<RawAnswer>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => undefined); // a reset after the answer: the answer is what counts
    socket.on('close', () => {
      clearInterval(timer);
      resolve(parse(text));
    });
    socket.write(head);
    const queue = [...chunks];
    const next = () => {
      const chunk = queue.shift();
      if (chunk === undefined) clearInterval(timer);
      else if (!socket.destroyed) socket.write(chunk);
    };
    if (everyMs > 0) timer = setInterval(next, everyMs);
    else queue.splice(0).forEach((c) => socket.write(c));
  });
}

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: gateway\r\nCookie: ${cookie}\r\n` +
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('') +
  '\r\n';

const chunk = (data: Buffer | string) => {
  const bytes = Buffer.from(data);
  return Buffer.concat([
    Buffer.from(`${bytes.length.toString(16)}\r\n`),
    bytes,
    Buffer.from('\r\n'),
  ]);
};

/** What the service saw of a request body: all of it, or an aborted request. */
function recordBody(seen: Array<{ bytes: number; complete: boolean }>) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const entry = { bytes: 0, complete: false };
    seen.push(entry);
    req.on('data', (d: Buffer) => (entry.bytes += d.length));
    req.on('end', () => {
      entry.complete = true;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(entry));
    });
    req.on('error', () => undefined);
  };
}

describe('gateway: slow and oversized clients, hung services', () => {
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let services: Awaited<ReturnType<typeof identityServices>>;
  let service: Awaited<ReturnType<typeof upstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let staticDir: string;
  let port: number;

  beforeAll(async () => {
    vhost = await isolatedVhost();
    services = await identityServices(vhost.url, {
      identity: {
        users: [{ id: 'slowpoke', tokenVersion: 0, isSuperAdmin: false }],
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
      MAX_JSON_BODY_BYTES: String(64 * 1024),
      MAX_UPLOAD_BODY_BYTES: String(1024 * 1024),
      CLIENT_HEADERS_TIMEOUT_MS: '1000',
      CLIENT_BODY_IDLE_TIMEOUT_MS: '1000',
      CLIENT_BODY_TIMEOUT_MS: '2500',
      UPSTREAM_ANSWER_TIMEOUT_MS: '1000',
      UPSTREAM_GENERATION_ANSWER_TIMEOUT_MS: '4000',
    });
    port = gateway.http.port;
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

  describe('bodies too large', () => {
    it('when a JSON route is sent a Content-Length above its limit, then it is answered 413 with Connection: close and nothing reaches the service', async () => {
      const before = service.requests.length;

      const answer = await rawClient(
        port,
        head('POST', '/api/contents/x', {
          'content-type': 'application/json',
          'content-length': 50_000_000,
        }),
        ['{"a":"'],
      );

      expect(answer.status).toBe(413);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({
        code: 'GATEWAY.BODY_TOO_LARGE',
        message: 'The request is too large to be accepted.',
      });
      expect(service.requests.length).toBe(before);
    });

    it('when an upload route is sent a body the JSON limit refuses but the upload limit allows, then the service receives all of it', async () => {
      const seen: Array<{ bytes: number; complete: boolean }> = [];
      service.on('/api/uploads/chat-attachments', recordBody(seen));
      const body = Buffer.alloc(200 * 1024, 'a');

      const res = await fetch(`http://127.0.0.1:${port}/api/uploads/chat-attachments`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/octet-stream' },
        body,
      });

      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ bytes: body.length, complete: true });
    });

    it('when a chunked body crosses the route limit, then it is cut with a 413 and the service sees an aborted request', async () => {
      const seen: Array<{ bytes: number; complete: boolean }> = [];
      service.on('/api/contents/chunked', recordBody(seen));
      const piece = chunk(Buffer.alloc(16 * 1024, 'b'));

      const answer = await rawClient(
        port,
        head('POST', '/api/contents/chunked', { 'transfer-encoding': 'chunked' }),
        Array.from({ length: 40 }, () => piece), // 640 KiB, limit 64 KiB
        20,
      );

      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).code).toBe('GATEWAY.BODY_TOO_LARGE');
      await waitFor(() => seen.length === 1, 5000, 'the service to see the request');
      await sleep(200);
      expect(seen[0]?.complete).toBe(false);
      expect(seen[0]?.bytes ?? 0).toBeLessThanOrEqual(64 * 1024);
    });
  });

  describe('slow clients', () => {
    it('when a client sends its headers a line at a time, then the connection is answered 408 and closed', async () => {
      const lines = Array.from({ length: 100 }, (_, i) => `X-Slow-${i}: 1\r\n`);

      const answer = await rawClient(
        port,
        'GET /api/contents HTTP/1.1\r\nHost: gateway\r\n',
        lines,
        200,
      );

      expect(answer.status).toBe(408);
    });

    it('when a client drips its body one byte at a time, then it is cut with a 408 and the service sees an aborted request', async () => {
      const seen: Array<{ bytes: number; complete: boolean }> = [];
      service.on('/api/contents/drip', recordBody(seen));

      const answer = await rawClient(
        port,
        head('POST', '/api/contents/drip', {
          'content-type': 'text/plain',
          'content-length': 1000,
        }),
        Array.from({ length: 1000 }, () => 'x'),
        200, // never silent for the idle timeout (1 s), but far too slow in all (2.5 s)
      );

      expect(answer.status).toBe(408);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({
        code: 'GATEWAY.REQUEST_TIMEOUT',
        message: 'The request was sent too slowly and was stopped. Please try again.',
      });
      await sleep(200);
      expect(seen.every((s) => !s.complete)).toBe(true);
    });

    it('when a client stops sending its body half-way, then it is cut with a 408', async () => {
      const seen: Array<{ bytes: number; complete: boolean }> = [];
      service.on('/api/contents/stalled', recordBody(seen));

      const answer = await rawClient(
        port,
        head('POST', '/api/contents/stalled', {
          'content-type': 'text/plain',
          'content-length': 100,
        }),
        ['only a part'],
      );

      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body).code).toBe('GATEWAY.REQUEST_TIMEOUT');
      await sleep(200);
      expect(seen.map((s) => s.complete)).toEqual([false]);
    });
  });

  describe('a hung service', () => {
    it('when a service does not answer within the route budget, then the gateway answers 504 and closes its request to the service', async () => {
      let upstreamClosed = false;
      service.on('/api/prompts/hung', (req) => {
        req.socket.once('close', () => (upstreamClosed = true));
      });

      const res = await fetch(`http://127.0.0.1:${port}/api/prompts/hung`, { headers: { cookie } });

      expect(res.status).toBe(504);
      expect(await res.json()).toEqual({
        code: 'GATEWAY.UPSTREAM_TIMEOUT',
        message: 'The service did not answer in time, please try again.',
      });
      await waitFor(() => upstreamClosed, 5000, 'the request to the hung service to be closed');
    });

    it('when the client sent Expect: 100-continue to a hung service, then the gateway still answers 504 within the budget', async () => {
      service.on('/api/prompts/expecting', () => {
        /* hung */
      });

      const answer = await rawClient(
        port,
        head('POST', '/api/prompts/expecting', {
          'content-type': 'application/json',
          'content-length': 2,
          expect: '100-continue',
          connection: 'close',
        }),
        ['{}'],
        50,
      );

      expect(answer.text).toContain('HTTP/1.1 100 Continue');
      expect(answer.text).toContain('HTTP/1.1 504');
      expect(answer.text).toContain('GATEWAY.UPSTREAM_TIMEOUT');
    });

    it('when the hung service answers again, then the next request through the gateway succeeds', async () => {
      let hung = true;
      service.on('/api/prompts/recovering', (_req, res) => {
        if (!hung) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
      const first = await fetch(`http://127.0.0.1:${port}/api/prompts/recovering`, {
        headers: { cookie },
      });

      hung = false;
      const next = await fetch(`http://127.0.0.1:${port}/api/prompts/recovering`, {
        headers: { cookie },
      });

      expect(first.status).toBe(504);
      expect(next.status).toBe(200);
      expect(await next.json()).toEqual({ ok: true });
    });

    it('when a generation route takes longer than the JSON budget but less than its own, then its answer arrives', async () => {
      service.on('/api/generate', (_req, res) => {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end('data: late but fine\n\n');
        }, 1_800);
      });

      const res = await fetch(`http://127.0.0.1:${port}/api/generate`, { headers: { cookie } });

      expect(res.status).toBe(200);
      expect(await res.text()).toBe('data: late but fine\n\n');
    });

    it('when a generation route says nothing for longer than its own budget, then the gateway answers 504', async () => {
      service.on('/api/generate-with-image', () => {
        /* hung */
      });

      const res = await fetch(`http://127.0.0.1:${port}/api/generate-with-image`, {
        headers: { cookie },
      });

      expect(res.status).toBe(504);
      expect((await res.json()).code).toBe('GATEWAY.UPSTREAM_TIMEOUT');
    });
  });
});
