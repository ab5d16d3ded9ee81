import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  EVENTS,
  IDENTITY_SNAPSHOT_RPC,
  IdentitySnapshot,
  MEMBERSHIPS_SNAPSHOT_RPC,
  MembershipsSnapshot,
} from '@aict/contracts';
import {
  eventsExchange,
  type Bus,
  type Logger,
  type ReadinessCheck,
  type Subscription,
} from '@aict/service-kit';
import {
  AUTH_IDENTITY_EVENTS,
  WORKSPACE_IDENTITY_EVENTS,
  type IdentityEvent,
  type IdentityState,
} from './identity-state';

export interface IdentitySyncOptions {
  bus: Bus;
  state: IdentityState;
  logger: Logger;
  /** Each snapshot request waits this long for its answer. Default 10 s. */
  snapshotTimeoutMs?: number;
  /** Pause before asking again when a service does not answer; doubles up to maxDelayMs. */
  retry?: { initialDelayMs?: number; maxDelayMs?: number };
  /** How often revoked sessions whose tokens have expired are forgotten. Default 60 s. */
  pruneEveryMs?: number;
}

const SCHEMAS = Object.fromEntries(
  [...AUTH_IDENTITY_EVENTS, ...WORKSPACE_IDENTITY_EVENTS].map((type) => [type, EVENTS[type]]),
) as { [T in IdentityEvent['type']]: (typeof EVENTS)[T] };

/** Unique per gateway instance: the queue is private to it (host name helps operators). */
function instanceQueueName(): string {
  const host = hostname()
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .slice(0, 60);
  return `identity.${host}.${randomBytes(4).toString('hex')}`;
}

/**
 * Keeps an IdentityState current (docs/adr/0001-identity-and-tenancy.md):
 *   1. subscribe first: a private (exclusive, auto-delete) queue bound to the identity
 *      events of the auth and workspace exchanges; events are buffered from then on;
 *   2. load both snapshots over request/reply, asking again until both services answer;
 *   3. replace the state with them and apply the buffered events in order: ready.
 * The broker drops a private queue with its connection, and events published meanwhile
 * with it, so after every reconnection the three steps run again (until then the last
 * state keeps serving, and /readyz says not ready).
 */
export class IdentitySync {
  private subscription: Subscription | undefined;
  private buffer: IdentityEvent[] | null = [];
  private generation = 0;
  private stopped = false;
  private synced = false;
  private pruneTimer: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly logger: Logger;

  constructor(private readonly options: IdentitySyncOptions) {
    this.logger = options.logger.child({ component: 'identity-sync' });
  }

  /** Subscribes; the snapshots load in the background (see `ready`). */
  async start(): Promise<void> {
    const { bus, state, pruneEveryMs = 60_000 } = this.options;
    this.subscription = await bus.subscribe({
      queue: instanceQueueName(),
      exclusive: true,
      exchange: eventsExchange('auth'),
      bindings: [
        ...AUTH_IDENTITY_EVENTS,
        ...WORKSPACE_IDENTITY_EVENTS.map((routingKey) => ({
          exchange: eventsExchange('workspace'),
          routingKey,
        })),
      ],
      schemas: SCHEMAS,
      handler: (event) => this.receive(event as IdentityEvent),
      onConsuming: () => void this.resync(),
    });
    this.pruneTimer = setInterval(() => state.prune(), pruneEveryMs);
    this.pruneTimer.unref();
  }

  /**
   * One identity event, from RabbitMQ or from a service's answer header: applied at once
   * and, while snapshots are loading, also kept to be applied again over them.
   */
  receive(event: IdentityEvent): void {
    this.buffer?.push(event);
    this.options.state.apply(event);
  }

  /** Snapshots loaded since the last (re)connection. */
  ready(): boolean {
    return this.synced && !this.stopped;
  }

  readiness(): ReadinessCheck {
    return {
      name: 'identity',
      check: async () => {
        if (!this.ready()) throw new Error('identity snapshots not loaded');
      },
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    clearInterval(this.pruneTimer);
    this.wakeUp?.();
    await this.subscription?.close();
  }

  /** Runs on every start of consumption: buffer, load both snapshots, replay, ready. */
  private async resync(): Promise<void> {
    const generation = ++this.generation;
    const current = () => generation === this.generation && !this.stopped;
    const { bus, state, snapshotTimeoutMs = 10_000 } = this.options;
    const { initialDelayMs = 200, maxDelayMs = 5_000 } = this.options.retry ?? {};
    this.synced = false;
    this.buffer = [];
    let delay = initialDelayMs;
    for (let attempt = 1; current(); attempt++) {
      try {
        const [identity, memberships] = await Promise.all([
          bus.request(
            IDENTITY_SNAPSHOT_RPC,
            {},
            { timeoutMs: snapshotTimeoutMs, schema: IdentitySnapshot },
          ),
          bus.request(
            MEMBERSHIPS_SNAPSHOT_RPC,
            {},
            { timeoutMs: snapshotTimeoutMs, schema: MembershipsSnapshot },
          ),
        ]);
        if (!current()) return;
        const buffered = this.buffer ?? [];
        state.load(identity, memberships);
        for (const event of buffered) state.apply(event);
        this.buffer = null;
        this.synced = true;
        this.logger.info(
          { ...state.stats(), replayed: buffered.length, attempts: attempt },
          'identity snapshots loaded',
        );
        return;
      } catch (err) {
        if (!current()) return;
        this.logger.warn(
          { err: { message: (err as Error).message }, attempt, retryInMs: delay },
          'identity snapshots not available yet',
        );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        delay = Math.min(delay * 2, maxDelayMs);
      }
    }
  }
}
