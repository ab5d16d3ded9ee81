import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJsonBody, readBody, sendError, sendJson, sleep } from './lib/http';
import { ImageStore } from './lib/image-store';
import { parseMultipart } from './lib/multipart';
import { maskKey, SimHttpError, simErrors } from './lib/openai-errors';
import type { FailRule, SimConfigPatch } from './sim-config';
import { SimState, type KeyRule, type SimControl } from './sim-state';
import { SimContext, type DecodedInput } from './request-context';
import { createChatCompletion } from './routes/chat-completions.routes';
import { downloadFile } from './routes/files.routes';
import { createImage, editImage } from './routes/images.routes';
import { listModels, retrieveModel } from './routes/models.routes';
import { handleSimControl } from './routes/sim-control.routes';

export interface ProviderSimOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Accepted API keys; default: any key starting with `sk-` that does not contain `invalid`. */
  validKeys?: KeyRule;
  /** Config applied at start (and kept until `control.set`/`reset`). */
  config?: SimConfigPatch;
}

export interface ProviderSim {
  /** Base URL for the SDK, ending in /v1 (`new OpenAI({ baseURL: sim.url })`). */
  url: string;
  /** http://host:port, where /__sim/* and /files/* live. */
  origin: string;
  port: number;
  control: SimControl;
  close(): Promise<void>;
}

type RouteHandler = (ctx: SimContext, param: string) => void | Promise<void>;

interface Route {
  method: string;
  pattern: RegExp;
  handler: RouteHandler;
  body: 'json' | 'multipart' | 'none';
}

const routes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/models$/, handler: (ctx) => listModels(ctx), body: 'none' },
  { method: 'GET', pattern: /^\/v1\/models\/([^/]+)$/, handler: retrieveModel, body: 'none' },
  {
    method: 'POST',
    pattern: /^\/v1\/chat\/completions$/,
    handler: createChatCompletion,
    body: 'json',
  },
  { method: 'POST', pattern: /^\/v1\/images\/generations$/, handler: createImage, body: 'json' },
  { method: 'POST', pattern: /^\/v1\/images\/edits$/, handler: editImage, body: 'multipart' },
  { method: 'GET', pattern: /^\/files\/([^/]+)$/, handler: downloadFile, body: 'none' },
  { method: 'HEAD', pattern: /^\/files\/([^/]+)$/, handler: downloadFile, body: 'none' },
];

/** Starts the OpenAI-compatible simulator. */
export async function startProviderSim(options: ProviderSimOptions = {}): Promise<ProviderSim> {
  const { port = 0, host = '127.0.0.1' } = options;
  const state = new SimState(options.validKeys);
  const images = new ImageStore();
  state.onReset(() => images.clear());
  if (options.config) state.set(options.config);
  // reset() returns to the start config, not the bare defaults, when one was given.
  const initial = state.config();
  if (options.config) state.onReset(() => state.set(initial));

  const server = createServer((req, res) => {
    handleRequest(req, res, state, images).catch((error: unknown) => {
      console.error('provider-sim: unexpected error', error);
      if (!res.headersSent) sendError(res, simErrors.serverError());
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0; // hang mode keeps requests open until the client gives up

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${urlHost === '0.0.0.0' || urlHost === '[::]' ? '127.0.0.1' : urlHost}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/v1`,
    origin,
    port: address.port,
    control: state,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

async function handleRequest(
  req: IncomingMessage,
  res: ServerResponse,
  state: SimState,
  images: ImageStore,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://provider-sim');
  const path = url.pathname;
  if (path.startsWith('/__sim/')) return handleSimControl(req, res, url, state);
  if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });

  const method = req.method ?? 'GET';
  const route = routes.find((r) => r.method === method && r.pattern.test(path));
  const param = route ? safeDecode(route.pattern.exec(path)?.[1] ?? '') : '';
  const apiKey = bearerKey(req);
  const input = route ? await decodeInput(req, route.body) : { kind: 'none' as const };
  if (input === null) return; // the client went away while sending its body
  const fields =
    input.kind === 'json'
      ? asObject(input.value)
      : input.kind === 'multipart'
        ? input.body.fields
        : {};

  const requestId = `req_${randomBytes(12).toString('hex')}`;
  const record = state.record(
    {
      requestId,
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      receivedAt: new Date().toISOString(),
      headers: recordableHeaders(req),
      apiKeyHint: apiKey === null ? null : maskKey(apiKey),
      ...(typeof fields.model === 'string' ? { model: fields.model } : {}),
      stream: fields.stream === true || fields.stream === 'true',
    },
    apiKey,
  );

  const abort = new AbortController();
  const ctx = new SimContext(req, res, url, state, images, record, abort.signal, input);
  res.setHeader('x-request-id', requestId);
  res.setHeader('openai-organization', 'org-provider-sim');
  res.setHeader('openai-version', '2020-10-01');
  res.on('close', () => {
    if (!res.writableFinished && !record.truncated) {
      record.aborted = true;
      abort.abort();
    }
    record.completed = res.writableFinished;
    record.status = res.headersSent ? res.statusCode : undefined;
    record.timings.endedMs = ctx.elapsedMs();
    state.touch(record);
  });

  const markClosed = () => {
    record.connectionOpen = false;
    state.touch(record);
  };
  if (req.socket.destroyed) markClosed();
  else req.socket.once('close', markClosed);

  const isFile = path.startsWith('/files/');
  if (!(await sleep(state.settings.latencyMs, abort.signal))) return;
  try {
    const rule = state.takeFailure(path, apiKey, isFile);
    if (rule) {
      record.failure = rule.mode;
      state.touch(record);
      if (rule.mode === 'hang') return await hang(abort.signal);
      if (rule.mode === 'empty_image') return ctx.json(200, emptyImageAnswer());
      if (rule.mode === 'truncated_stream') ctx.truncateAfter = rule.afterChunks ?? 3;
      else throw failureError(rule, record.model, apiKey);
    }
    if (!route) throw simErrors.invalidUrl(method, path);
    if (!isFile) authorize(state, apiKey);
    if (input.kind === 'invalid') throw input.error;
    await route.handler(ctx, param);
  } catch (error) {
    if (!(error instanceof SimHttpError)) throw error;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    ctx.truncateAfter = null; // errors are always sent whole
    ctx.json(error.status, error.body(), error.headers);
  }
}

function failureError(
  rule: FailRule,
  model: string | undefined,
  apiKey: string | null,
): SimHttpError {
  switch (rule.mode) {
    case 'invalid_key':
      return simErrors.invalidKey(apiKey, rule.message);
    case 'rate_limit':
      return simErrors.rateLimit(model, rule.retryAfterSeconds ?? 1, rule.message);
    case 'insufficient_quota':
      return simErrors.insufficientQuota(rule.message);
    default:
      return simErrors.serverError(rule.message);
  }
}

/** An images answer that carries no image: neither `b64_json` nor `url`. */
const emptyImageAnswer = () => ({
  created: Math.floor(Date.now() / 1000),
  data: [{ revised_prompt: 'nothing' }],
});

/** Never answers; returns once the client has gone away. */
function hang(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

function authorize(state: SimState, apiKey: string | null): void {
  if (apiKey === null) throw simErrors.missingKey();
  if (!state.isValidKey(apiKey)) throw simErrors.invalidKey(apiKey);
}

function bearerKey(req: IncomingMessage): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return match ? match[1]!.trim() : null;
}

function recordableHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'authorization' || name === 'cookie' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

const safeDecode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

async function decodeInput(
  req: IncomingMessage,
  expected: Route['body'],
): Promise<DecodedInput | null> {
  const raw = await readBody(req).catch((error: unknown) => error);
  if (raw instanceof SimHttpError) return { kind: 'invalid', error: raw };
  if (!(raw instanceof Buffer)) return null;
  if (expected === 'none' || raw.length === 0) return { kind: 'none' };
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  try {
    if (contentType.startsWith('multipart/form-data')) {
      return { kind: 'multipart', body: await parseMultipart(raw, req.headers) };
    }
    if (contentType.startsWith('application/json') || expected === 'json') {
      return { kind: 'json', value: parseJsonBody(raw) };
    }
    return { kind: 'other', contentType };
  } catch (error) {
    if (error instanceof SimHttpError) return { kind: 'invalid', error };
    throw error;
  }
}
