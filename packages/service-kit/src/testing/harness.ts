/**
 * What every service's test harness shares: start a service on the real infrastructure (a
 * RabbitMQ vhost of its own, its own database and bucket), call it as the gateway would,
 * listen to the events it publishes, wait for outcomes, and remove everything afterwards.
 * Each service's `test-support/harness.ts` adds its own fixtures on top.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import type { DestinationStream } from 'pino';
import { CONTEXT_HEADER, EVENTS, type TrustedContext } from '@aict/contracts';
import { createLogger } from '../logger';
import { createBus, type Bus, type Envelope } from '../messaging';
import type { RunningService } from '../service';
import { acquireSharedBrokerLock, createTestVhost } from './broker';
import { serviceTestEnv, signTestContext } from './index';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls until `check` gives a truthy value (a check that throws is tried again). The
 * deadline is generous because some outcomes ride on the outbox sweep (every few seconds),
 * which a loaded CI machine slows down.
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

// ---------------------------------------------------------------------------
// Callers, as the gateway describes them.

/** Claims of the gateway's context (what signTestContext signs). */
export type Claims = Partial<TrustedContext> & {
  roles?: Record<string | number, 'admin' | 'user'>;
};

/** Who calls: claims of the gateway's context, or null for a request without one. */
export type Caller = Claims | null;

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

// ---------------------------------------------------------------------------
// Calling a service.

export interface CallOptions {
  as: Caller;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as multipart/form-data (instead of `body`). */
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  /** Parsed when the answer is JSON, else the text. */
  body: T;
  text: string;
  bytes: Buffer;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers loosely
export type Call = <T = any>(
  method: string,
  path: string,
  options: CallOptions,
) => Promise<CallResult<T>>;

export interface CallerOptions {
  /** Also send X-Workspace-ID from the caller's `ws`, as the gateway forwards it. */
  forwardWorkspace?: boolean;
}

/** `call(method, path, { as, body, form, headers })` against `baseUrl`, signed as the gateway. */
export function callerOf(baseUrl: string, { forwardWorkspace = false }: CallerOptions = {}): Call {
  return async (method, path, { as, body, form, headers = {}, signal }) => {
    const h: Record<string, string> = { ...headers };
    if (as) {
      h[CONTEXT_HEADER] = signTestContext(as);
      if (forwardWorkspace && as.ws) h['x-workspace-id'] = String(as.ws);
    }
    const init: RequestInit = { method, headers: h, signal };
    if (form) init.body = form;
    else if (body !== undefined) {
      h['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(`${baseUrl}${path}`, init);
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && bytes.length > 0)
      parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as never, text, bytes };
  };
}

// ---------------------------------------------------------------------------
// Starting a service.

export interface StartOptions {
  env: Record<string, string | undefined>;
  exit: (code: number) => void;
  logDestination?: DestinationStream;
}

export interface ServiceHarnessOptions<S> {
  /** The service's name: its test database and bucket, its vhost and its events exchange. */
  name: string;
  start: (options: StartOptions) => Promise<S>;
  /** Environment over serviceTestEnv's (AMQP_URL is the vhost's). */
  env?: Record<string, string | undefined>;
  /** Prefix of the vhost's name (default `aict-<name>`). */
  vhostPrefix?: string;
  /** Record the events published on `aict.<name>.events` (default true). */
  listen?: boolean;
  logDestination?: DestinationStream;
  /** See CallerOptions. */
  forwardWorkspace?: boolean;
}

export interface ServiceHarness<S> {
  service: S;
  url: string;
  env: Record<string, string | undefined>;
  vhostUrl: string;
  /** The service's own database, for reading and writing raw documents. */
  db: Connection;
  call: Call;
  /** A bus publishing (and requesting) as service `name` does; closed by stop(). */
  busAs(name: string): Promise<Bus>;
  /** Every event the service publishes from now on, as received on RabbitMQ. */
  events: Envelope[];
  waitForEvent(match: (e: Envelope) => boolean, what?: string): Promise<Envelope>;
  /** Shuts the service down and removes its database, bucket and vhost. */
  stop(): Promise<void>;
}

/** Drops the database a service under test used (its `MONGO_URL`, from serviceTestEnv). */
export async function dropTestDatabase(mongoUrl: string | undefined): Promise<void> {
  if (!mongoUrl) return;
  const conn = await mongoose
    .createConnection(mongoUrl, { serverSelectionTimeoutMS: 5000 })
    .asPromise()
    .catch(() => null);
  if (!conn) return;
  await conn.dropDatabase().catch(() => undefined);
  await conn.close().catch(() => undefined);
}

/** Removes the objects and the bucket a service under test wrote. */
export async function removeTestBucket(service: Pick<RunningService<unknown>, 'deps'>) {
  const storage = service.deps.storage;
  await storage?.removePrefix('workspaces/').catch(() => undefined);
  await storage?.client.removeBucket(storage.bucket).catch(() => undefined);
}

/**
 * Starts a service on the real FerretDB, RabbitMQ (a vhost of its own, under the shared
 * broker lock) and MinIO, with its own database and bucket.
 */
export async function startServiceHarness<S extends RunningService<unknown>>(
  options: ServiceHarnessOptions<S>,
): Promise<ServiceHarness<S>> {
  const { name } = options;
  const releaseLock = await acquireSharedBrokerLock();
  const vhost = await createTestVhost(options.vhostPrefix ?? `aict-${name}`);
  const buses: Bus[] = [];
  let db: Connection | undefined;
  let service: S | undefined;
  const cleanUp = async () => {
    for (const bus of buses.reverse()) await bus.close().catch(() => undefined);
    if (service) {
      await service.shutdown('test done');
      await removeTestBucket(service);
    }
    await db?.dropDatabase().catch(() => undefined);
    await db?.close();
    await vhost.remove();
    releaseLock();
  };
  try {
    const env = serviceTestEnv(name, { AMQP_URL: vhost.url, ...options.env });
    service = await options.start({
      env,
      exit: () => {},
      ...(options.logDestination ? { logDestination: options.logDestination } : {}),
    });
    db = await mongoose.createConnection(env.MONGO_URL!).asPromise();
    const logger = createLogger(`${name}-test`, { level: 'silent' });
    const busAs = async (as: string) => {
      const bus = await createBus({ url: vhost.url, service: as, logger, schemas: EVENTS });
      buses.push(bus);
      return bus;
    };
    const events: Envelope[] = [];
    if (options.listen ?? true) {
      const listener = await busAs(`${name}-test`);
      await listener.subscribe({
        queue: `listener-${randomBytes(4).toString('hex')}`,
        exchange: `aict.${name}.events`,
        bindings: ['#'],
        schemas: EVENTS,
        exclusive: true,
        handler: (event) => void events.push(event as Envelope),
      });
    }
    const url = service.http.url;
    return {
      service,
      url,
      env,
      vhostUrl: vhost.url,
      db,
      call: callerOf(url, { forwardWorkspace: options.forwardWorkspace }),
      busAs,
      events,
      async waitForEvent(match, what = 'event') {
        try {
          return await waitFor(() => events.find(match), what);
        } catch (err) {
          const seen = events.map((e) => `${e.type} ${JSON.stringify(e.data)}`).join('\n  ');
          throw new Error(`${(err as Error).message}; received:\n  ${seen}`);
        }
      },
      stop: cleanUp,
    };
  } catch (err) {
    await cleanUp().catch(() => undefined);
    throw err;
  }
}
