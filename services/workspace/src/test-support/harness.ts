import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import mongoose, { type Connection } from 'mongoose';
import {
  CONTEXT_HEADER,
  EVENTS,
  IDENTITY_EVENTS_HEADER,
  type TrustedContext,
} from '@aict/contracts';
import { createBus, createLogger, type Bus, type Envelope } from '@aict/service-kit';
import {
  acquireSharedBrokerLock,
  createTestVhost,
  serviceTestEnv,
  signTestContext,
} from '@aict/service-kit/testing';
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
  amqpUrl: string;
  mongoUrl: string;
  env: Record<string, string | undefined>;
  /** The service's own database, for reading raw documents. */
  db: Connection;
  /** A bus publishing as the auth service does (`aict.auth.events`). */
  authBus: Bus;
  service: Awaited<ReturnType<typeof start>>;
  /**
   * Waits until the document's pending events are published. A test that writes a document
   * behind the service's back waits first: on FerretDB v1 the outbox flush (read, publish,
   * `$pullAll`) would otherwise write the document back over the test's change.
   */
  settled(collection: string, id: unknown): Promise<void>;
  /** Everything the service logged (at LOG_LEVEL, default silent). */
  logs(): string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
  call<T = any>(method: string, path: string, options: CallOptions): Promise<CallResult<T>>;
  /** Every event the service publishes from now on, as received on RabbitMQ. */
  events: Envelope[];
  waitForEvent(match: (e: Envelope) => boolean, what?: string): Promise<Envelope>;
  stop(): Promise<void>;
}

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

/** A user id as the auth service makes them (routes refuse any other shape). */
export const newUserId = () => randomUUID();
export const uniqueName = (prefix = 'Workspace') => `${prefix} ${randomBytes(4).toString('hex')}`;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(
  check: () => T | Promise<T>,
  what = 'condition',
  timeoutMs = 10_000,
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

/** The identity events a response carries for the gateway. */
export function identityEventsOf(headers: Headers): Envelope[] {
  const value = headers.get(IDENTITY_EVENTS_HEADER);
  return value ? (JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Envelope[]) : [];
}

/**
 * Starts the workspace service on the real FerretDB, RabbitMQ (a vhost of its own) and MinIO,
 * with its own database and bucket, and helpers to call it as the gateway would.
 */
export async function startHarness(overrides: Record<string, string> = {}): Promise<Harness> {
  const logChunks: string[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logChunks.push(chunk.toString());
      done();
    },
  });
  const releaseLock = await acquireSharedBrokerLock();
  const vhost = await createTestVhost('aict-ws');
  const env = serviceTestEnv('workspace', {
    AMQP_URL: vhost.url,
    SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // As in the local run: the test's simulator (OPENAI_BASE_URL) is the one private origin
    // a saved base URL may name.
    PROVIDER_URL_ALLOWED_ORIGINS: overrides.OPENAI_BASE_URL
      ? new URL(overrides.OPENAI_BASE_URL).origin
      : '',
    ...overrides,
  });
  const service = await start({ env, exit: () => {}, logDestination });
  const db = await mongoose.createConnection(env.MONGO_URL!).asPromise();
  const logger = createLogger('workspace-test', { level: 'silent' });
  const authBus = await createBus({ url: vhost.url, service: 'auth', logger, schemas: EVENTS });
  const listener = await createBus({ url: vhost.url, service: 'workspace-test', logger });
  const events: Envelope[] = [];
  await listener.subscribe({
    queue: `listener-${randomBytes(4).toString('hex')}`,
    exchange: 'aict.workspace.events',
    bindings: ['#'],
    schemas: EVENTS,
    exclusive: true,
    handler: (event) => void events.push(event as Envelope),
  });
  const url = service.http.url;

  return {
    url,
    amqpUrl: vhost.url,
    mongoUrl: env.MONGO_URL!,
    env,
    db,
    authBus,
    service,
    logs: () => logChunks.join(''),
    async settled(collection, id) {
      await waitFor(
        async () => {
          const doc = await db.collection(collection).findOne({ _id: id } as never);
          return !doc?._outbox?.length;
        },
        `the outbox of ${collection} ${String(id)} to be published`,
      );
    },
    events,
    async call(method, path, { as, body, form, headers = {} }) {
      const init: RequestInit = { method, headers: { ...headers } };
      const h = init.headers as Record<string, string>;
      if (as) {
        h[CONTEXT_HEADER] = signTestContext(as);
        // The gateway forwards X-Workspace-ID; services read it from the context (`ws`).
        if (as.ws) h['x-workspace-id'] = String(as.ws);
      }
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
    async waitForEvent(match, what = 'event') {
      try {
        return await waitFor(() => events.find(match), what);
      } catch (err) {
        const seen = events.map((e) => `${e.type} ${JSON.stringify(e.data)}`).join('\n  ');
        throw new Error(`${(err as Error).message}; received:\n  ${seen}`);
      }
    },
    async stop() {
      await listener.close();
      await authBus.close();
      await service.shutdown('test done');
      await service.deps.storage?.removePrefix('workspaces/').catch(() => undefined);
      await service.deps.storage?.client
        .removeBucket(service.deps.storage.bucket)
        .catch(() => undefined);
      await db.dropDatabase().catch(() => undefined);
      await db.close();
      await vhost.remove();
      releaseLock();
    },
  };
}
