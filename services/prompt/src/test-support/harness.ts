import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { CONTEXT_HEADER, EVENTS, type TrustedContext } from '@aict/contracts';
import { createBus, createLogger, type Bus, type Envelope } from '@aict/service-kit';
import {
  acquireSharedBrokerLock,
  createTestVhost,
  serviceTestEnv,
  signTestContext,
} from '@aict/service-kit/testing';
import { createDomain } from '../app';
import type { DomainDeps } from '../domain/domain-deps';
import { start } from '../main';

/** Who calls: claims of the gateway's context, or null for a request without one. */
export type Caller =
  (Partial<TrustedContext> & { roles?: Record<string | number, 'admin' | 'user'> }) | null;

export interface CallOptions {
  as: Caller;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  bytes: Buffer;
}

export interface Harness {
  url: string;
  env: Record<string, string | undefined>;
  /** The service's own database, for reading and writing raw documents. */
  db: Connection;
  /** The use cases over the service's own database, bucket and bus (repairs in tests). */
  domain: DomainDeps;
  /** A bus publishing as the workspace service does (`aict.workspace.events`). */
  workspaceBus: Bus;
  service: Awaited<ReturnType<typeof start>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
  call<T = any>(method: string, path: string, options: CallOptions): Promise<CallResult<T>>;
  /** Every event the service publishes from now on, as received on RabbitMQ. */
  events: Envelope[];
  waitForEvent(match: (e: Envelope) => boolean, what?: string): Promise<Envelope>;
  stop(): Promise<void>;
}

/** A workspace id no other test uses (a random large integer). */
export const newWorkspaceId = () => 1_000_000 + randomInt(2 ** 40);

export const superAdmin = (overrides: Partial<TrustedContext> = {}): Caller => ({
  uid: `sa-${randomUUID()}`,
  sa: true,
  roles: {},
  ws: null,
  ...overrides,
});

/** A caller with roles in some workspaces; `ws` (the current workspace) defaults to the first. */
export const member = (
  roles: Record<number, 'admin' | 'user'>,
  overrides: Partial<TrustedContext> = {},
): Caller => {
  const first = Object.keys(roles)[0];
  return {
    uid: `u-${randomUUID()}`,
    sa: false,
    roles,
    ws: first === undefined ? null : Number(first),
    ...overrides,
  };
};

export const adminOf = (workspaceId: number, overrides: Partial<TrustedContext> = {}) =>
  member({ [workspaceId]: 'admin' }, overrides);
export const userOf = (workspaceId: number, overrides: Partial<TrustedContext> = {}) =>
  member({ [workspaceId]: 'user' }, overrides);

/** A valid create-prompt body, with overrides. */
export function buildPrompt(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Prompt ${randomBytes(3).toString('hex')}`,
    description: 'Writes product copy',
    template: 'Describe {product} for {audience} in {language}.',
    category: 'Marketing',
    contentType: 'text',
    model: 'gpt-4o',
    isPublic: false,
    isDefault: false,
    ...overrides,
  };
}

/** An image prompt that takes reference images (gpt-image-1). */
export const buildImagePrompt = (overrides: Record<string, unknown> = {}) =>
  buildPrompt({
    template: 'A poster of {subject} in the style of {file}',
    contentType: 'image',
    model: 'gpt-image-1',
    ...overrides,
  });

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls until `check` gives a truthy value. The deadline is generous because some outcomes
 * ride on the outbox sweep (every few seconds), which a loaded CI machine slows down.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what = 'condition',
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(50);
  }
}

/**
 * Starts the prompt service on the real FerretDB, RabbitMQ (a vhost of its own) and MinIO,
 * with its own database and bucket, and helpers to call it as the gateway would.
 */
export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const releaseLock = await acquireSharedBrokerLock();
  const vhost = await createTestVhost('aict-prompt');
  const env = serviceTestEnv('prompt', { AMQP_URL: vhost.url, ...overrides });
  const service = await start({ env, exit: () => {} });
  const db = await mongoose.createConnection(env.MONGO_URL!).asPromise();
  const logger = createLogger('prompt-test', { level: 'silent' });
  const workspaceBus = await createBus({
    url: vhost.url,
    service: 'workspace',
    logger,
    schemas: EVENTS,
  });
  const listener = await createBus({ url: vhost.url, service: 'prompt-test', logger });
  const events: Envelope[] = [];
  await listener.subscribe({
    queue: `listener-${randomBytes(4).toString('hex')}`,
    exchange: 'aict.prompt.events',
    bindings: ['#'],
    schemas: EVENTS,
    exclusive: true,
    handler: (event) => void events.push(event as Envelope),
  });
  const domain = createDomain({ ...service.deps, config: service.config });
  const url = service.http.url;

  return {
    url,
    env,
    db,
    domain,
    workspaceBus,
    service,
    events,
    async call(method, path, { as, body, form, headers = {} }) {
      const init: RequestInit = { method, headers: { ...headers } };
      const h = init.headers as Record<string, string>;
      if (as) h[CONTEXT_HEADER] = signTestContext(as);
      if (form) init.body = form;
      else if (body !== undefined) {
        h['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      const res = await fetch(`${url}${path}`, init);
      const bytes = Buffer.from(await res.arrayBuffer());
      let parsed: unknown = bytes.toString('utf8');
      if ((res.headers.get('content-type') ?? '').includes('json') && bytes.length > 0)
        parsed = JSON.parse(bytes.toString('utf8'));
      return { status: res.status, headers: res.headers, body: parsed as never, bytes };
    },
    waitForEvent(match, what = 'event') {
      return waitFor(() => events.find(match), what);
    },
    async stop() {
      await domain.relay.close();
      await listener.close();
      await workspaceBus.close();
      await service.shutdown('test done');
      const storage = service.deps.storage;
      await storage?.removePrefix('workspaces/').catch(() => undefined);
      await storage?.client.removeBucket(storage.bucket).catch(() => undefined);
      await db.dropDatabase().catch(() => undefined);
      await db.close();
      await vhost.remove();
      releaseLock();
    },
  };
}
