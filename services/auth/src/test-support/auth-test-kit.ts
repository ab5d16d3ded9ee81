/**
 * Test kit of the auth service: starts it on the real infrastructure with its own database
 * AND its own RabbitMQ vhost (the service's durable queues `auth.*` and `rpc.auth.*` would
 * otherwise be shared by every auth instance of every test file running at once), and talks
 * to it as the gateway would.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import mongoose from 'mongoose';
import { CONTEXT_HEADER, EVENTS, SESSION_COOKIE, type User } from '@aict/contracts';
import { createBus, createLogger, type Bus, type Envelope } from '@aict/service-kit';
import {
  serviceTestEnv,
  signTestContext,
  uniqueTestName,
  waitFor,
  createTestVhost as createPooledVhost,
} from '@aict/service-kit/testing';
import { start } from '../main';

const run = promisify(execFile);

export { waitFor } from '@aict/service-kit/testing';

/** The session-token key pair of the tests (the gateway would hold the public half). */
export const TEST_JWT_KEYS = generateKeyPairSync('ec', { namedCurve: 'P-256' });
export const TEST_JWT_PRIVATE_PEM = TEST_JWT_KEYS.privateKey
  .export({ type: 'pkcs8', format: 'pem' })
  .toString();

export const TEST_SUPER_ADMIN = {
  username: 'root-admin',
  email: 'root-admin@example.com',
  password: 'root-admin-password',
};

const silent = () => createLogger('auth-test', { level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A RabbitMQ vhost of its own (service-kit's pooled one; rabbitmqctl runs as root here). */
export interface TestVhost {
  name: string;
  url: string;
  /**
   * Resolves once the service's own queues (retry queues included) hold no message, acked or
   * not, as `rabbitmqctl` reports it. Beware: a quorum queue's count is refreshed only every
   * few seconds, so right after a publish this may resolve before the message is handled;
   * to wait for handling, wait for its effect (or its id `done` in `processed_events`).
   */
  drained(): Promise<void>;
  remove(): Promise<void>;
}

export async function createTestVhost(): Promise<TestVhost> {
  const { name, url, remove } = await createPooledVhost('t-auth');
  return {
    name,
    url,
    drained: async () => {
      await waitFor(async () => {
        const { stdout } = await run('rabbitmqctl', [
          'list_queues',
          '-p',
          name,
          'name',
          'messages',
          '--quiet',
          '--no-table-headers',
        ]);
        return stdout
          .trim()
          .split('\n')
          .map((line) => line.split('\t'))
          .filter(([queue]) => queue?.startsWith('auth.') && !queue.endsWith('.dlq'))
          .every(([, messages]) => messages === '0');
      }, 'the auth queues to drain');
    },
    remove,
  };
}

export interface CallOptions {
  /** The `x-aict-context` value; omitted: no header at all. */
  ctx?: string;
  body?: unknown;
  /** A session token sent as the `aict_session` cookie. */
  session?: string;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Records every event the auth service publishes. */
export interface EventLog {
  events: Envelope[];
  /** Resolves with the first event matching `predicate` (waits up to 10 s). */
  find(predicate: (event: Envelope) => boolean): Promise<Envelope>;
}

export interface AuthKit {
  url: string;
  service: Awaited<ReturnType<typeof start>>;
  vhost: TestVhost;
  env: Record<string, string | undefined>;
  /** A bus of the workspace service's name: publishes `membership.changed`, `workspace.deleted`. */
  workspaceBus: Bus;
  authEvents: EventLog;
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<Answer<T>>;
  /** Stops the service; `keepData` leaves its database and vhost for a restart. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export async function startAuth(
  overrides: Record<string, string | undefined> = {},
  vhost?: TestVhost,
  /** Where the service's JSON log lines go (a test that reads them). */
  logDestination?: { write(line: string): void },
) {
  vhost ??= await createTestVhost();
  const env = serviceTestEnv('auth', {
    AMQP_URL: vhost.url,
    JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_PEM,
    SUPERADMIN_USERNAME: TEST_SUPER_ADMIN.username,
    SUPERADMIN_EMAIL: TEST_SUPER_ADMIN.email,
    SUPERADMIN_PASSWORD: TEST_SUPER_ADMIN.password,
    RATE_LIMIT_MAX_PER_IP: '1000',
    RATE_LIMIT_MAX_PER_USERNAME: '1000',
    ...overrides,
  });
  const service = await start({ env, exit: () => {}, logDestination });
  const workspaceBus = await createBus({
    url: vhost.url,
    service: 'workspace',
    logger: silent(),
    schemas: EVENTS,
  });
  const authEvents = await recordEvents(workspaceBus, service.deps.bus!.exchange);

  const kit: AuthKit = {
    url: service.http.url,
    service,
    vhost,
    env,
    workspaceBus,
    authEvents,
    async call<T>(method: string, path: string, options: CallOptions = {}) {
      const headers: Record<string, string> = {};
      if (options.ctx !== undefined) headers[CONTEXT_HEADER] = options.ctx;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      if (options.session) headers.cookie = `${SESSION_COOKIE}=${options.session}`;
      const res = await fetch(`${service.http.url}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: (text ? JSON.parse(text) : undefined) as T,
        headers: res.headers,
      };
    },
    async stop({ keepData = false } = {}) {
      await workspaceBus.close();
      await service.shutdown('test done');
      if (keepData) return;
      await dropDatabase(env.MONGO_URL!);
      await vhost.remove();
    },
  };
  return kit;
}

async function recordEvents(bus: Bus, exchange: string): Promise<EventLog> {
  const events: Envelope[] = [];
  await bus.subscribe({
    queue: uniqueTestName('auth-events', '-'),
    exchange,
    bindings: ['#'],
    schemas: EVENTS,
    handler: (event) => void events.push(event as Envelope),
  });
  return {
    events,
    find: (predicate) => waitFor(() => events.find(predicate), 'an auth event', 20_000),
  };
}

async function dropDatabase(url: string): Promise<void> {
  const connection = await mongoose.createConnection(url).asPromise();
  try {
    await connection.dropDatabase();
  } finally {
    await connection.close();
  }
}

// ---------------------------------------------------------------------------
// Callers, as the gateway would describe them.

/** A client address of its own, so rate limits of one test never touch another. */
export const freshIp = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]! % 250).join('.')}`;

export const signedOut = (ip = freshIp()) => signTestContext({ uid: null, ip });

export function as(
  uid: string,
  options: { sa?: boolean; roles?: Record<number, 'admin' | 'user'>; ws?: number | null } = {},
) {
  return signTestContext({
    uid,
    sa: options.sa ?? false,
    roles: options.roles ?? {},
    ws: options.ws ?? null,
  });
}

let workspaceSeq = 1000 + Math.floor(Math.random() * 1_000_000);
/** A workspace id no other test of this file uses. */
export const newWorkspaceId = () => ++workspaceSeq;

// ---------------------------------------------------------------------------
// Builders.

export function buildRegistration(
  overrides: Partial<Record<'username' | 'email' | 'password', string>> = {},
) {
  const tag = randomBytes(4).toString('hex');
  return {
    username: `user_${tag}`,
    email: `user_${tag}@example.com`,
    password: 'correct horse',
    ...overrides,
  };
}

/** The session token in a response's Set-Cookie. */
export function sessionOf(answer: Answer): string {
  const cookie = answer.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error('no session cookie was set');
  return cookie.slice(SESSION_COOKIE.length + 1).split(';')[0]!;
}

/** Registers a new user; resolves with it and its session token. */
export async function registerUser(
  kit: AuthKit,
  overrides: Parameters<typeof buildRegistration>[0] = {},
): Promise<{ user: User; token: string; password: string }> {
  const registration = buildRegistration(overrides);
  const answer = await kit.call<User>('POST', '/api/register', {
    ctx: signedOut(),
    body: registration,
  });
  if (answer.status !== 201)
    throw new Error(`register answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return { user: answer.body, token: sessionOf(answer), password: registration.password };
}

/**
 * Publishes `membership.changed` as the workspace service would, and waits until the
 * auth service's read model shows it in `GET /api/user`.
 */
export async function assignRole(
  kit: AuthKit,
  userId: string,
  workspaceId: number,
  role: 'admin' | 'user' | null,
): Promise<void> {
  await kit.workspaceBus.publish('membership.changed', { workspaceId, userId, role });
  await waitFor(async () => {
    const { body } = await kit.call<User>('GET', '/api/user', { ctx: as(userId) });
    return (body.workspaceRoles[String(workspaceId)] ?? null) === role;
  }, `role ${role} in workspace ${workspaceId}`);
}

/** Decodes the `x-aict-identity-events` header. */
export function identityEventsOf(answer: Answer): Envelope[] {
  const header = answer.headers.get('x-aict-identity-events');
  if (!header) return [];
  return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Envelope[];
}
