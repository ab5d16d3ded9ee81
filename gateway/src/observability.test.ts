import http from 'node:http';
import { rmSync } from 'node:fs';
import { SESSION_COOKIE } from '@aict/contracts';
import {
  createHttpApp,
  createLogger,
  currentRequestId,
  recordSpans,
  startServer,
  type ServerHandle,
  type SpanRecorder,
} from '@aict/service-kit';
import {
  frontendFixture,
  identityServices,
  isolatedVhost,
  sessionToken,
  startGateway,
  waitFor,
  waitUntilReady,
} from './testing/fixtures';

jest.setTimeout(30_000);

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

/** A GET whose path is sent byte for byte (fetch would resolve `..` itself). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, method: 'GET', headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const isMetricsPage = (body: string) =>
  body.includes('# TYPE') || body.includes('http_server_request_duration_seconds');

describe('gateway: metrics and trace propagation', () => {
  let recorder: SpanRecorder;
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let identity: Awaited<ReturnType<typeof identityServices>>;
  let service: ServerHandle;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let staticDir: string;
  const cookie = `${SESSION_COOKIE}=${sessionToken({ sub: 'alice' })}`;

  beforeAll(async () => {
    recorder = recordSpans();
    vhost = await isolatedVhost();
    identity = await identityServices(vhost.url, {
      identity: {
        users: [{ id: 'alice', tokenVersion: 0, isSuperAdmin: false }],
        revokedSessions: [],
      },
      memberships: { memberships: [{ workspaceId: 1, userId: 'alice', role: 'user' }] },
    });
    await identity.serve();
    // A real service built on the kit: it serves /metrics on its own (internal) port.
    const logger = createLogger('svc', { level: 'silent' });
    const app = createHttpApp({
      service: 'svc',
      logger,
      routes: (express) => {
        express.post('/api/login', (req, res) => {
          res.json({ requestId: currentRequestId(), traceparent: req.headers.traceparent });
        });
        express.get('/api/prompts/:id', (req, res) => {
          res.json({ id: req.params.id, requestId: currentRequestId() });
        });
      },
    });
    service = await startServer(app, { port: 0 });
    staticDir = frontendFixture();
    gateway = await startGateway({
      AMQP_URL: vhost.url,
      serviceUrl: service.url,
      STATIC_DIR: staticDir,
      METRICS_PORT: '0',
    });
    await waitUntilReady(gateway.http.url);
  });

  afterAll(async () => {
    try {
      await gateway?.shutdown('test done');
      await identity?.close();
      await service?.close();
      if (staticDir) rmSync(staticDir, { recursive: true, force: true });
      await recorder?.stop();
    } finally {
      await vhost?.dispose();
    }
  });

  beforeEach(() => recorder.reset());

  it('when /metrics is asked on the public port, in any disguise, then no metrics page comes back', async () => {
    const base = gateway.http.url;
    const session = { cookie, 'x-workspace-id': '1' };
    const attempts = [
      await rawGet(base, '/metrics'),
      await rawGet(base, '/metrics?format=prometheus'),
      await rawGet(base, '/api/metrics', session),
      await rawGet(base, '/api/prompts/../../metrics', session),
      await rawGet(base, '/api/prompts/%2e%2e/%2e%2e/metrics', session),
      await rawGet(base, '/api/prompts/..%2f..%2fmetrics', session),
    ];

    for (const { body } of attempts) expect(isMetricsPage(body)).toBe(false);
    expect(attempts[0]?.body).toContain('<div id="root">'); // the shell's page, as for any path
    expect(attempts[2]?.status).toBe(404);
    // The disguised paths did reach the service, which matched no metrics route with them.
    expect(attempts[3]?.status).toBe(404);
    expect(attempts[4]?.status).toBe(404);
    expect(JSON.parse(attempts[5]?.body ?? '{}')).toMatchObject({ id: '../../metrics' });
    // The same service does serve its metrics on its own port (which is not published).
    expect(isMetricsPage((await rawGet(service.url, '/metrics')).body)).toBe(true);
  });

  it('when requests went through the gateway, then its metrics port counts them by route label and status', async () => {
    const metricsUrl = gateway.metrics?.url;
    expect(metricsUrl).toBeDefined();
    const scrape = async () => {
      const res = await fetch(`${metricsUrl}/metrics`);
      return { status: res.status, text: await res.text() };
    };
    const count = (text: string, route: string, status: number, method = 'GET') =>
      Number(
        new RegExp(
          `^http_server_request_duration_seconds_count\\{method="${method}",route="${route.replace(/[*]/g, '\\*')}",status_code="${status}"\\} (\\d+)$`,
          'm',
        ).exec(text)?.[1] ?? 0,
      );
    const before = (await scrape()).text;

    await fetch(`${gateway.http.url}/api/login`, { method: 'POST' });
    await fetch(`${gateway.http.url}/api/prompts/p-1`, { headers: { 'x-workspace-id': '1' } });
    await fetch(`${gateway.http.url}/api/prompts/p-2`, {
      headers: { cookie, 'x-workspace-id': '1' },
    });
    await fetch(`${gateway.http.url}/api/prompts/p-3`, {
      headers: { cookie, 'x-workspace-id': '1' },
    });

    const { status, text } = await scrape();

    expect(status).toBe(200);
    const moved = (route: string, code: number, method = 'GET') =>
      count(text, route, code, method) - count(before, route, code, method);
    expect(moved('/api/login*', 200, 'POST')).toBe(1);
    expect(moved('/api/prompts*', 401)).toBe(1); // refused by the gateway itself
    expect(moved('/api/prompts*', 200)).toBe(2);
    expect(text).not.toContain('p-2');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('when a request carries a traceparent, then the gateway span continues it and the service span is the gateway span’s child', async () => {
    const res = await fetch(`${gateway.http.url}/api/login`, {
      method: 'POST',
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
    });
    const body = (await res.json()) as { requestId: string; traceparent: string };
    await waitFor(() => recorder.named('POST /api/login*').length === 1, 5000, 'gateway span');

    const [gatewaySpan] = recorder.named('POST /api/login*');
    const [serviceSpan] = recorder.named('POST /api/login');
    expect(gatewaySpan?.spanContext().traceId).toBe(TRACE_ID);
    expect(gatewaySpan?.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(body.traceparent).toBe(`00-${TRACE_ID}-${gatewaySpan?.spanContext().spanId}-01`);
    expect(serviceSpan?.spanContext().traceId).toBe(TRACE_ID);
    expect(serviceSpan?.parentSpanContext?.spanId).toBe(gatewaySpan?.spanContext().spanId);
    // One request id from the client's answer to the service's logs: the trace id.
    expect(res.headers.get('x-request-id')).toBe(TRACE_ID);
    expect(body.requestId).toBe(TRACE_ID);
  });

  it('when a request carries no trace, then the gateway starts one and its id is the request id everywhere', async () => {
    const res = await fetch(`${gateway.http.url}/api/prompts/p-9`, {
      headers: { cookie, 'x-workspace-id': '1', 'x-request-id': 'client-chosen-id' },
    });
    const body = (await res.json()) as { requestId: string };
    await waitFor(() => recorder.named('GET /api/prompts*').length === 1, 5000, 'gateway span');

    const [gatewaySpan] = recorder.named('GET /api/prompts*');
    const traceId = gatewaySpan?.spanContext().traceId;
    expect(gatewaySpan?.parentSpanContext).toBeUndefined();
    expect(res.headers.get('x-request-id')).toBe(traceId);
    expect(body.requestId).toBe(traceId);
    expect(gatewaySpan?.attributes['aict.client_request_id']).toBe('client-chosen-id');
  });
});
