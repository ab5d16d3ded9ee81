import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { currentRequestId } from '../context';
import { createHttpApp } from '../http/app';
import { startServer, type ServerHandle } from '../http/server';
import { captureLogs, waitUntil } from '../test-support';
import { tracingActive } from './tracing';

jest.setTimeout(30_000);

const TRACE_ID = '5bf92f3577b34da6a3ce929d0e0e4736';

/** A local OTLP/HTTP receiver: keeps what is posted to /v1/traces. */
async function otlpReceiver() {
  const received: Array<{ type: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces')
        received.push({ type: String(req.headers['content-type']), body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function whoAmIApp() {
  return createHttpApp({
    service: 'exporttest',
    logger: captureLogs('exporttest').logger,
    routes: (app) =>
      app.get('/api/whoami/:id', (_req, res) => res.json({ requestId: currentRequestId() })),
  });
}

describe('tracing without and with an exporter', () => {
  let plain: ServerHandle;

  beforeAll(async () => {
    plain = await startServer(whoAmIApp(), { port: 0 });
  });
  afterAll(() => plain?.close());

  it('when no exporter is configured, then nothing is recorded, an incoming trace is still carried on as the request id, and x-request-id works as before', async () => {
    const traced = await fetch(`${plain.url}/api/whoami/1`, {
      headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
    });
    const named = await fetch(`${plain.url}/api/whoami/1`, {
      headers: { 'x-request-id': 'gw-123.abc' },
    });
    const bare = await fetch(`${plain.url}/api/whoami/1`);

    expect(tracingActive()).toBe(false);
    expect(traced.headers.get('x-request-id')).toBe(TRACE_ID);
    expect(await traced.json()).toEqual({ requestId: TRACE_ID });
    expect(named.headers.get('x-request-id')).toBe('gw-123.abc');
    expect(await named.json()).toEqual({ requestId: 'gw-123.abc' });
    expect(bare.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when OTEL_EXPORTER_OTLP_ENDPOINT is set, then a service process exports its spans over OTLP/HTTP under its name, and its logs carry the trace id', async () => {
    const receiver = await otlpReceiver();
    const child = spawn(
      process.execPath,
      [join(__dirname, '../test-support/run-ts.cjs'), join(__dirname, 'traced-service.fixture.ts')],
      {
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines: Array<Record<string, unknown>> = [];
    let stderr = '';
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) if (part.trim()) lines.push(JSON.parse(part));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      try {
        await waitUntil(() => lines.some((l) => l.msg === 'traced-service listening'), {
          timeoutMs: 15_000,
        });
      } catch (err) {
        throw new Error(`child did not start: ${stderr}`, { cause: err });
      }
      const url = lines.find((l) => l.msg === 'traced-service listening')?.url as string;

      const res = await fetch(`${url}/api/whoami/7`, {
        headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
      });
      expect(await res.json()).toEqual({ requestId: TRACE_ID });
      child.kill('SIGTERM'); // the shutdown flushes the spans still buffered
      expect(await exited).toBe(0);
      await waitUntil(() => receiver.received.length > 0, { timeoutMs: 5_000, intervalMs: 50 });

      const all = receiver.received.map((r) => r.body).join('\n');
      expect(receiver.received[0]?.type).toContain('application/json');
      expect(all).toContain('"GET /api/whoami/:id"');
      expect(all).toContain('"traced-service"'); // service.name
      expect(all.toLowerCase()).toContain(TRACE_ID);
      expect(lines.find((l) => l.msg === 'who am i')?.requestId).toBe(TRACE_ID);
      expect(lines.some((l) => l.msg === 'traces exported (OTLP/HTTP)')).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await receiver.close();
    }
  });
});
