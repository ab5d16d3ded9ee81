import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import express from 'express';
import { startServer, type ServerHandle } from './http/server';
import { onShutdown, type ShutdownHandle } from './shutdown';
import { captureLogs, waitUntil } from './test-support';

/** A request on a new connection (no pooled socket): resolves with the status or the error code. */
function freshGet(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

// jest gives each test file its own `process` object, so real signals cannot reach
// listeners registered here; these tests emit the signal on that object, and the last
// one sends a real SIGTERM to a child process.
describe('onShutdown', () => {
  const { logger } = captureLogs('shutdown-test');
  let handle: ShutdownHandle | undefined;
  let server: ServerHandle | undefined;

  afterEach(async () => {
    handle?.dispose();
    handle = undefined;
    await server?.close();
    server = undefined;
  });

  it('when the signal arrives during a slow request, then it finishes, new connections are refused, steps run in order, exit 0', async () => {
    let inFlight = false;
    const app = express();
    app.get('/slow', async (_req, res) => {
      inFlight = true;
      await new Promise((r) => setTimeout(r, 600));
      res.json({ finished: true });
    });
    server = await startServer(app, { port: 0 });
    const order: string[] = [];
    const exit = jest.fn();
    const http = server;
    handle = onShutdown(
      logger,
      [
        {
          name: 'http',
          run: async () => {
            await http.close();
            order.push('http closed');
          },
        },
        {
          name: 'consumers',
          run: async () => {
            order.push('consumers stopped');
          },
        },
        {
          name: 'mongo',
          run: () => {
            order.push('mongo closed');
          },
        },
      ],
      { signals: ['SIGUSR2'], exit },
    );

    const slow = fetch(`${server.url}/slow`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await waitUntil(() => inFlight, { intervalMs: 10 });
    process.emit('SIGUSR2', 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 50));

    expect(await freshGet(`${server.url}/slow`)).toBe('ECONNREFUSED');
    expect(order).toEqual([]); // still waiting for the request in flight
    expect(await slow).toEqual({ status: 200, body: { finished: true } });
    await waitUntil(() => exit.mock.calls.length > 0);
    expect(order).toEqual(['http closed', 'consumers stopped', 'mongo closed']);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('when a step fails, then the later steps still run and the exit code is 1', async () => {
    const ran: string[] = [];
    const exit = jest.fn();
    handle = onShutdown(
      logger,
      [
        {
          name: 'a',
          run: () => {
            throw new Error('cannot');
          },
        },
        {
          name: 'b',
          run: () => {
            ran.push('b');
          },
        },
      ],
      { signals: [], exit },
    );

    await handle.shutdown('test');

    expect(ran).toEqual(['b']);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('when the steps outlast the deadline, then it exits 1 without waiting for them', async () => {
    const exit = jest.fn();
    handle = onShutdown(logger, [{ name: 'stuck', run: () => new Promise(() => undefined) }], {
      signals: [],
      exit,
      timeoutMs: 100,
    });

    await handle.shutdown('test');

    expect(exit).toHaveBeenCalledWith(1);
  });

  it('when a second signal arrives while shutting down, then it exits 1 at once', async () => {
    const exit = jest.fn();
    let release!: () => void;
    handle = onShutdown(
      logger,
      [{ name: 'slow', run: () => new Promise<void>((r) => (release = r)) }],
      {
        signals: ['SIGUSR2'],
        exit,
      },
    );

    process.emit('SIGUSR2', 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 30));
    process.emit('SIGUSR2', 'SIGUSR2');
    await waitUntil(() => exit.mock.calls.length > 0, { intervalMs: 10 });

    expect(exit).toHaveBeenCalledWith(1);
    release();
  });

  it('when the server closes, then idle keep-alive sockets are closed too (no hang)', async () => {
    const app = express();
    app.get('/ping', (_req, res) => {
      res.send('pong');
    });
    server = await startServer(app, { port: 0 });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve) =>
      http.get(`${server!.url}/ping`, { agent }, (res) => res.resume().on('end', resolve)),
    );

    const started = Date.now();
    await server.close();

    expect(Date.now() - started).toBeLessThan(1_000);
    agent.destroy();
  });

  it('when a real service process gets SIGTERM during a request, then it finishes it, runs its stop steps and exits 0', async () => {
    const child = spawn(
      process.execPath,
      [
        join(__dirname, 'test-support/run-ts.cjs'),
        join(__dirname, 'test-support/slow-service.fixture.ts'),
      ],
      {
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SLOW_MS: '800' },
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
      await waitUntil(() => lines.some((l) => l.msg === 'slow-service listening'), {
        timeoutMs: 15_000,
      });
    } catch (err) {
      throw new Error(`child did not start: ${stderr}`, { cause: err });
    }
    const url = lines.find((l) => l.msg === 'slow-service listening')?.url as string;

    const slow = fetch(`${url}/slow`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await waitUntil(() => lines.some((l) => l.msg === 'slow request started'), { intervalMs: 10 });
    child.kill('SIGTERM');

    expect(await slow).toEqual({ status: 200, body: { finished: true } });
    expect(await exited).toBe(0);
    const messages = lines.map((l) => l.msg);
    const at = (m: string) => messages.indexOf(m);
    expect(at('shutting down')).toBeGreaterThan(at('slow request started'));
    expect(at('request completed')).toBeGreaterThan(at('shutting down'));
    expect(at('worker stopped')).toBeGreaterThan(at('request completed'));
    expect(lines.find((l) => l.msg === 'shutdown complete')).toMatchObject({ code: 0 });
  }, 30_000);
});
