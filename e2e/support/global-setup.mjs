import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DATA_DIR } from '../../infra/lib/paths.mjs';
import { startStack } from '../../scripts/lib/stack.mjs';

/** The spans every process of the stack exported (OTLP/HTTP JSON), by trace id. */
const spans = [];

function collectSpans(body) {
  for (const resource of JSON.parse(body).resourceSpans ?? []) {
    const service = resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value
      ?.stringValue;
    for (const scope of resource.scopeSpans ?? [])
      for (const span of scope.spans ?? [])
        spans.push({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || null,
          name: span.name,
          kind: span.kind,
        });
  }
}

/**
 * The stack's control for tests, which jest runs in another realm where the stack's process
 * handles do not exist:
 * - POST /kill?name=content, POST /restart?name=content (answers when ready again), for
 *   e2e/fault.e2e.ts;
 * - an OTLP/HTTP receiver (POST /v1/traces, JSON) every process exports its spans to, and
 *   GET /spans?traceId= to read them, for e2e/api/trace.e2e.ts.
 */
function startControl(stackRef) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://control');
    if (req.method === 'POST' && url.pathname === '/v1/traces') {
      let body = '';
      req.setEncoding('utf8');
      for await (const chunk of req) body += chunk;
      try {
        collectSpans(body);
      } catch {
        /* not JSON: ignore */
      }
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }
    if (req.method === 'GET' && url.pathname === '/spans') {
      const traceId = url.searchParams.get('traceId');
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(spans.filter((s) => s.traceId === traceId)));
    }
    const stack = stackRef.current;
    const name = url.searchParams.get('name');
    try {
      if (req.method !== 'POST' || !name) throw new Error('POST /kill|/restart?name=');
      if (url.pathname === '/kill') await stack.kill(name);
      else if (url.pathname === '/restart') await stack.restart(name);
      else throw new Error(`unknown ${url.pathname}`);
      res.writeHead(204).end();
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err.message));
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export default async function globalSetup() {
  const stackRef = { current: null };
  const control = await startControl(stackRef);
  const controlUrl = `http://127.0.0.1:${control.address().port}`;
  // A fresh set of databases per run, so runs never see each other's data.
  const stack = await startStack({
    profile: 'e2e',
    simulator: true,
    dbSuffix: `${Date.now().toString(36)}`,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: controlUrl },
  });
  stackRef.current = stack;
  globalThis.__AICT_STACK__ = stack;
  globalThis.__AICT_STACK_CONTROL__ = control;
  const { stop: _stop, kill: _kill, restart: _restart, pids: _pids, ...info } = stack;
  info.controlUrl = controlUrl;
  writeFileSync(join(DATA_DIR, 'e2e-stack.json'), JSON.stringify(info, null, 2));
  process.env.AICT_E2E_STACK = JSON.stringify(info);
}
