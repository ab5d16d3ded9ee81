import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DATA_DIR, LOG_DIR } from '../../infra/lib/paths.mjs';
import { PROFILES, startStack } from '../../scripts/lib/stack.mjs';

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

/** What the sign-in page's single sign-on link says: "Sign in with Company IdP". */
const SSO_BUTTON_LABEL = 'Company IdP';

/**
 * The identity provider of e2e/sso.e2e.ts: a real OpenID Connect provider (oidc-provider.mjs)
 * in a child process on a free port of 127.0.0.1, its client the e2e stack's auth service,
 * whose callback the browser reaches through the e2e gateway. Started before the stack,
 * which needs its issuer URL; its log is .data/logs/e2e-oidc-provider.log.
 */
async function startSsoProvider() {
  const client = { id: 'aict-e2e', secret: randomBytes(24).toString('base64url') };
  const redirectUri = `http://127.0.0.1:${PROFILES.e2e.gatewayPort}/api/auth/oidc/callback`;
  mkdirSync(LOG_DIR, { recursive: true });
  const log = openSync(join(LOG_DIR, 'e2e-oidc-provider.log'), 'a');
  const child = spawn(process.execPath, [join(import.meta.dirname, 'oidc-provider.mjs')], {
    env: {
      ...process.env,
      CLIENT_ID: client.id,
      CLIENT_SECRET: client.secret,
      REDIRECT_URI: redirectUri,
    },
    stdio: ['ignore', 'pipe', log],
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  try {
    const issuer = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error('the OIDC provider was not ready within 60 s')),
        60_000,
      );
      child.stdout.on('data', (chunk) => {
        out += chunk.toString();
        const ready = /READY (\S+)/.exec(out);
        if (ready) {
          clearTimeout(timer);
          resolve(ready[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the OIDC provider exited (${code}): see e2e-oidc-provider.log`));
      });
    });
    child.stdout.resume();
    return {
      issuer,
      stop,
      env: {
        OIDC_ISSUER_URL: issuer,
        OIDC_CLIENT_ID: client.id,
        OIDC_CLIENT_SECRET: client.secret,
        OIDC_REDIRECT_URI: redirectUri,
        OIDC_ALLOW_HTTP: 'true',
        OIDC_BUTTON_LABEL: SSO_BUTTON_LABEL,
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

export default async function globalSetup() {
  const stackRef = { current: null };
  const control = await startControl(stackRef);
  const controlUrl = `http://127.0.0.1:${control.address().port}`;
  const sso = await startSsoProvider();
  globalThis.__AICT_SSO_PROVIDER__ = sso;
  // A fresh set of databases per run, so runs never see each other's data. Password sign-in
  // stays on beside single sign-on (OIDC_PASSWORD_LOGIN's default): the other tests use it.
  const stack = await startStack({
    profile: 'e2e',
    simulator: true,
    dbSuffix: `${Date.now().toString(36)}`,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: controlUrl, ...sso.env },
  }).catch(async (err) => {
    control.close();
    await sso.stop();
    throw err;
  });
  stackRef.current = stack;
  globalThis.__AICT_STACK__ = stack;
  globalThis.__AICT_STACK_CONTROL__ = control;
  const { stop: _stop, kill: _kill, restart: _restart, pids: _pids, ...info } = stack;
  info.controlUrl = controlUrl;
  info.sso = { issuerUrl: sso.issuer, buttonLabel: SSO_BUTTON_LABEL };
  writeFileSync(join(DATA_DIR, 'e2e-stack.json'), JSON.stringify(info, null, 2));
  process.env.AICT_E2E_STACK = JSON.stringify(info);
}
