import { z } from 'zod';
import { currentRequestId } from '../context';
import type { ReadinessCheck } from '../readiness';
import { captureLogs } from '../test-support';
import { createHttpApp, jsonBody } from './app';
import { startServer, type ServerHandle } from './server';
import { validate } from './validate';

describe('createHttpApp', () => {
  const logs = captureLogs('http-test');
  const readiness: ReadinessCheck[] = [];
  let http: ServerHandle;

  beforeAll(async () => {
    const app = createHttpApp({
      service: 'http-test',
      logger: logs.logger,
      readiness,
      readinessTimeoutMs: 300,
      routes: (app) => {
        app.get('/whoami', async (_req, res) => {
          await new Promise((r) => setTimeout(r, 5));
          logs.logger.info('handling whoami');
          res.json({ requestId: currentRequestId() });
        });
        app.post('/raw', (req, res) => {
          res.json({ parsed: req.body !== undefined });
        });
        app.post(
          '/things/:id',
          jsonBody('1kb'),
          validate({
            params: z.object({ id: z.string().regex(/^t\d+$/, 'id must look like t123') }),
            query: z.object({
              dryRun: z
                .enum(['true', 'false'])
                .default('false')
                .transform((v) => v === 'true'),
            }),
            body: z.object({
              name: z.string().min(1, 'Name is required'),
              size: z.number().int().positive(),
            }),
          }),
          (req, res) => {
            const { id } = req.params;
            const { name, size } = req.body;
            const { dryRun } = req.query;
            res.status(201).json({ id, name, size, dryRun });
          },
        );
      },
    });
    http = await startServer(app, { port: 0 });
  });

  afterAll(() => http.close());
  beforeEach(() => {
    readiness.length = 0;
  });

  describe('request id', () => {
    it('when the request carries a well-formed x-request-id, then it is echoed and used in the context', async () => {
      const res = await fetch(`${http.url}/whoami`, { headers: { 'x-request-id': 'gw-123.abc' } });

      expect(res.headers.get('x-request-id')).toBe('gw-123.abc');
      expect(await res.json()).toEqual({ requestId: 'gw-123.abc' });
    });

    it('when the request has no id or a malformed one, then a new uuid is generated', async () => {
      for (const headers of [
        {} as Record<string, string>,
        { 'x-request-id': 'bad id with spaces<script>' },
        { 'x-request-id': 'x'.repeat(200) },
      ]) {
        const res = await fetch(`${http.url}/whoami`, { headers });
        const id = res.headers.get('x-request-id');

        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(await res.json()).toEqual({ requestId: id });
      }
    });

    it('when a handler logs, then the line and the access-log line carry the request id', async () => {
      await fetch(`${http.url}/whoami`, { headers: { 'x-request-id': 'trace-log-1' } });

      const mine = logs.lines().filter((l) => l.requestId === 'trace-log-1');
      expect(mine.map((l) => l.msg)).toEqual(['handling whoami', 'request completed']);
    });
  });

  describe('access log', () => {
    it('when a request completes, then exactly one line is written without body, cookies or authorization', async () => {
      const id = 'access-1';
      await fetch(`${http.url}/raw?page=2&token=abc123`, {
        method: 'POST',
        headers: {
          'x-request-id': id,
          cookie: 'session=topsecret',
          authorization: 'Bearer secret-token',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ password: 'hunter2' }),
      });

      const lines = logs.lines().filter((l) => l.requestId === id);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 'info',
        msg: 'request completed',
        req: { method: 'POST', url: '/raw?page=2&token=[redacted]' },
        res: { statusCode: 200 },
      });
      const text = JSON.stringify(lines[0]);
      for (const secret of ['topsecret', 'secret-token', 'hunter2', 'abc123'])
        expect(text).not.toContain(secret);
    });

    it('when the app has no json option, then bodies are not parsed (the gateway streams them)', async () => {
      const res = await fetch(`${http.url}/raw`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });

      expect(await res.json()).toEqual({ parsed: false });
    });
  });

  describe('health', () => {
    it('when /healthz is called, then it answers 200 ok', async () => {
      const res = await fetch(`${http.url}/healthz`);

      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok' });
    });

    it('when every check passes, then /readyz answers 200', async () => {
      readiness.push(
        { name: 'a', check: async () => undefined },
        { name: 'b', check: async () => true },
      );

      const res = await fetch(`${http.url}/readyz`);

      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ready',
        checks: { a: 'ok', b: 'ok' },
        failed: [],
      });
    });

    it('when a check fails or hangs, then /readyz answers 503 naming it', async () => {
      readiness.push(
        { name: 'ok', check: async () => undefined },
        { name: 'broken', check: async () => Promise.reject(new Error('connection refused')) },
        { name: 'stuck', check: () => new Promise(() => undefined) },
      );

      const res = await fetch(`${http.url}/readyz`);

      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: 'not ready',
        checks: { ok: 'ok', broken: 'connection refused', stuck: 'timed out after 300 ms' },
        failed: ['broken', 'stuck'],
      });
    });
  });

  describe('validate', () => {
    const post = (path: string, body: unknown) =>
      fetch(`${http.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    it('when params, query and body are valid, then the handler sees the parsed values', async () => {
      const res = await post('/things/t7?dryRun=true', { name: 'lamp', size: 3, extra: 'dropped' });

      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ id: 't7', name: 'lamp', size: 3, dryRun: true });
    });

    it('when the body is invalid, then 400 VALIDATION.FAILED names the field', async () => {
      const res = await post('/things/t7', { name: '', size: 3 });

      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'VALIDATION.FAILED',
        message: 'Name is required',
        details: [{ path: 'name', message: 'Name is required' }],
      });
    });

    it('when params and body are both invalid, then every issue is listed', async () => {
      const res = await post('/things/nope', { size: -1 });
      const body = await res.json();

      expect(res.status).toBe(400);
      expect(body.message).toBe('id must look like t123');
      expect(body.details.map((d: { path: string }) => d.path)).toEqual(['id', 'name', 'size']);
    });

    it('when the JSON is malformed, then 400 REQUEST.MALFORMED_JSON', async () => {
      const res = await post('/things/t1', '{"name": ');

      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        code: 'REQUEST.MALFORMED_JSON',
        message: 'Malformed JSON body',
      });
    });

    it('when the body is larger than the route limit, then 413 REQUEST.TOO_LARGE', async () => {
      const res = await post('/things/t1', { name: 'x'.repeat(2000), size: 1 });

      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        code: 'REQUEST.TOO_LARGE',
        message: 'Request body is too large',
      });
    });
  });

  it('when no route matches, then 404 JSON', async () => {
    const res = await fetch(`${http.url}/nowhere`);

    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'Cannot GET /nowhere' });
  });
});
