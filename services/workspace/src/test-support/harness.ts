import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Connection } from 'mongoose';
import { IDENTITY_EVENTS_HEADER } from '@aict/contracts';
import type { Bus, Envelope } from '@aict/service-kit';
import { startServiceHarness, waitFor, type Call } from '@aict/service-kit/testing';
import { start } from '../main';

export {
  adminOf,
  member,
  sleep,
  superAdmin,
  userOf,
  waitFor,
  type Caller,
  type CallOptions,
  type CallResult,
} from '@aict/service-kit/testing';

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
  call: Call;
  /** Every event the service publishes from now on, as received on RabbitMQ. */
  events: Envelope[];
  waitForEvent(match: (e: Envelope) => boolean, what?: string): Promise<Envelope>;
  stop(): Promise<void>;
}

/** A user id as the auth service makes them (routes refuse any other shape). */
export const newUserId = () => randomUUID();
export const uniqueName = (prefix = 'Workspace') => `${prefix} ${randomBytes(4).toString('hex')}`;

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
  const h = await startServiceHarness({
    name: 'workspace',
    vhostPrefix: 'aict-ws',
    start,
    logDestination,
    // The gateway forwards X-Workspace-ID; services read it from the context (`ws`).
    forwardWorkspace: true,
    env: {
      SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      // As in the local run: the test's simulator (OPENAI_BASE_URL) is the one private origin
      // a saved base URL may name.
      PROVIDER_URL_ALLOWED_ORIGINS: overrides.OPENAI_BASE_URL
        ? new URL(overrides.OPENAI_BASE_URL).origin
        : '',
      ...overrides,
    },
  });
  const authBus = await h.busAs('auth');
  return {
    ...h,
    amqpUrl: h.vhostUrl,
    mongoUrl: h.env.MONGO_URL!,
    authBus,
    logs: () => logChunks.join(''),
    async settled(collection, id) {
      await waitFor(
        async () => {
          const doc = await h.db.collection(collection).findOne({ _id: id } as never);
          return !doc?._outbox?.length;
        },
        `the outbox of ${collection} ${String(id)} to be published`,
      );
    },
  };
}
