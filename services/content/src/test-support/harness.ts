import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import {
  CONTENT_STORE_RPC,
  CONTEXT_HEADER,
  ContentStoreReply,
  EVENTS,
  generatedImageUrl,
  type GeneratedContent,
  type TrustedContext,
} from '@aict/contracts';
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
  headers?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
export interface CallResult<T = any> {
  status: number;
  body: T;
}

export interface Harness {
  url: string;
  vhostUrl: string;
  env: Record<string, string | undefined>;
  db: Connection;
  /** The use cases over the service's own database and bus (repairs in tests). */
  domain: DomainDeps;
  /** Publishes as the workspace service does (`aict.workspace.events`). */
  workspaceBus: Bus;
  /** Publishes and requests as the generation service does. */
  generationBus: Bus;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
  call<T = any>(method: string, path: string, options: CallOptions): Promise<CallResult<T>>;
  /** content.store, as the generation service asks it. */
  store(content: GeneratedContent): Promise<ContentStoreReply>;
  /** Every event the service publishes from now on, as received on RabbitMQ. */
  events: Envelope[];
  stop(): Promise<void>;
}

export const newWorkspaceId = () => 1_000_000 + randomInt(2 ** 40);

export const superAdmin = (overrides: Partial<TrustedContext> = {}): Caller => ({
  uid: `sa-${randomUUID()}`,
  sa: true,
  roles: {},
  ws: null,
  ...overrides,
});

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

export const adminOf = (ws: number, overrides: Partial<TrustedContext> = {}) =>
  member({ [ws]: 'admin' }, overrides);
export const userOf = (ws: number, overrides: Partial<TrustedContext> = {}) =>
  member({ [ws]: 'user' }, overrides);

let clock = Date.now() - 1_000_000;

/** A finished text generation (ids fresh, times increasing), with overrides. */
export function buildContent(overrides: Partial<GeneratedContent> = {}): GeneratedContent {
  const id = overrides.id ?? randomUUID();
  clock += 1000;
  return {
    id,
    workspaceId: 1,
    userId: 'u-owner',
    title: `Title ${randomBytes(3).toString('hex')}`,
    content: 'Some generated text that is long enough to be cut for the preview of the history.',
    contentType: 'text',
    model: 'gpt-4o',
    language: 'en',
    promptId: null,
    parentId: null,
    threadId: id,
    metadata: { inputs: { message: 'Hello' }, usage: { promptTokens: 10, completionTokens: 20 } },
    usage: { promptTokens: 10, completionTokens: 20, images: 0 },
    createdAt: new Date(clock).toISOString(),
    ...overrides,
  };
}

export function buildImage(overrides: Partial<GeneratedContent> = {}): GeneratedContent {
  const id = overrides.id ?? randomUUID();
  const ws = overrides.workspaceId === undefined ? 1 : overrides.workspaceId;
  return buildContent({
    id,
    contentType: 'image',
    model: 'dall-e-3',
    content: generatedImageUrl(id, ws),
    metadata: { inputs: { subject: 'a cat' } },
    usage: { promptTokens: 0, completionTokens: 0, images: 1 },
    ...overrides,
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(
  check: () => T | Promise<T>,
  what = 'condition',
  timeoutMs = 20_000,
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
 * Starts the content service on the real FerretDB and RabbitMQ (a vhost of its own), with
 * its own database, and helpers to call it as the gateway and the generation service would.
 */
export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const releaseLock = await acquireSharedBrokerLock();
  const vhost = await createTestVhost('aict-content');
  const env = serviceTestEnv('content', { AMQP_URL: vhost.url, ...overrides });
  const service = await start({ env, exit: () => {} });
  const db = await mongoose.createConnection(env.MONGO_URL!).asPromise();
  const logger = createLogger('content-test', { level: 'silent' });
  const bus = (name: string) =>
    createBus({ url: vhost.url, service: name, logger, schemas: EVENTS });
  const workspaceBus = await bus('workspace');
  const generationBus = await bus('generation');
  const listener = await bus('content-test');
  const events: Envelope[] = [];
  await listener.subscribe({
    queue: `listener-${randomBytes(4).toString('hex')}`,
    exchange: 'aict.content.events',
    bindings: ['#'],
    schemas: EVENTS,
    exclusive: true,
    handler: (event) => void events.push(event as Envelope),
  });
  const domain = createDomain({ ...service.deps, config: service.config });
  const url = service.http.url;

  return {
    url,
    vhostUrl: vhost.url,
    env,
    db,
    domain,
    workspaceBus,
    generationBus,
    events,
    async call(method, path, { as, headers = {} }) {
      const h: Record<string, string> = { ...headers };
      if (as) h[CONTEXT_HEADER] = signTestContext(as);
      const res = await fetch(`${url}${path}`, { method, headers: h });
      const text = await res.text();
      const body: unknown =
        text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
      return { status: res.status, body: body as never };
    },
    store(content) {
      return generationBus.request(CONTENT_STORE_RPC, content, { schema: ContentStoreReply });
    },
    async stop() {
      await listener.close();
      await workspaceBus.close();
      await generationBus.close();
      await service.shutdown('test done');
      await db.dropDatabase().catch(() => undefined);
      await db.close();
      await vhost.remove();
      releaseLock();
    },
  };
}
