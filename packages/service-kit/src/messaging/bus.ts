import * as amqp from 'amqplib';
import type { ChannelModel } from 'amqplib';
import type { z } from 'zod';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { startOutgoingSpan } from '../observability/messaging';
import { busMetrics } from '../observability/metrics';
import { installTracingBasics } from '../observability/tracing';
import type { ReadinessCheck } from '../readiness';
import {
  Consumer,
  EventSubscription,
  type QueueType,
  type SubscribeOptions,
  type SubscriptionInfo,
} from './consumer';
import {
  buildEnvelope,
  eventsExchange,
  type Envelope,
  type EnvelopeOptions,
  type EventSchemas,
} from './envelope';
import { ConfirmPublisher } from './publisher';
import { RpcClient, RpcServer, type RpcHandler } from './rpc';
import { newStats, type BusStats } from './stats';

export interface BusOptions {
  /** `AMQP_URL`, e.g. `amqp://guest:guest@127.0.0.1:5672/aict`. */
  url: string;
  /** Names the events exchange (`aict.<service>.events`) and the queues (`<service>.<queue>`). */
  service: string;
  logger: Logger;
  /** Unacked messages per consumer (and so handlers running at once). Default 20. */
  prefetch?: number;
  /**
   * Data schemas of the events this service publishes (e.g. from contracts' `EVENTS`):
   * `publish` validates `data` and stamps the registered version.
   */
  schemas?: EventSchemas;
  /**
   * The type of the durable event queues (consumer, retry and dead-letter queues). Default
   * `quorum`, under names ending in `.v2`; classic queues of an earlier version under the
   * plain names are emptied into them and deleted (see `legacy.ts`). Exclusive queues are
   * classic whatever this says, and so are request/reply queues (rpc.ts `rpcQueue`).
   */
  queueType?: QueueType;
  /** Pause between looks at a classic queue of an earlier version still consumed. Default 10 s. */
  legacyRecheckMs?: number;
  /** A publish not confirmed within this fails with BUS.PUBLISH_TIMEOUT (503). Default 30 s. */
  publishTimeoutMs?: number;
  /** Publishes that may wait while the broker is unreachable; beyond, BUS.UNAVAILABLE. Default 10 000. */
  maxBuffered?: number;
  /** How long `close` waits for handlers in flight and unconfirmed publishes. Default 10 s. */
  shutdownTimeoutMs?: number;
  reconnect?: {
    /** First pause before reconnecting; doubles (with jitter) up to maxDelayMs. Default 200 ms. */
    initialDelayMs?: number;
    /** Default 5000 ms. */
    maxDelayMs?: number;
    /** Attempts before `createBus` gives up when the broker is unreachable at start. Default 10. */
    initialRetries?: number;
  };
  /** AMQP heartbeat (detects a dead connection), unless the URL sets one. Default 15 s. */
  heartbeatSeconds?: number;
}

export interface PublishItem {
  type: string;
  data: unknown;
  options?: EnvelopeOptions;
}

export interface Subscription extends SubscriptionInfo {
  /** Stops this consumer alone (waits for its handlers in flight). */
  close(): Promise<void>;
}

export interface Served {
  queue: string;
  close(): Promise<void>;
}

export interface BusStatsSnapshot extends BusStats {
  /** Publishes not yet confirmed (queued during an outage, or in flight). */
  pendingPublishes: number;
  connected: boolean;
}

export interface Bus {
  readonly service: string;
  /** `aict.<service>.events`, where `publish` sends. */
  readonly exchange: string;
  /** Builds an envelope in the current context (validated when a schema is registered). */
  envelope<D>(type: string, data: D, options?: EnvelopeOptions): Envelope<D>;
  /** Publishes one event; resolves with its envelope once the broker confirmed it. */
  publish<D>(type: string, data: D, options?: EnvelopeOptions): Promise<Envelope<D>>;
  /** Publishes many events pipelined (not one confirm at a time); resolves when all are confirmed. */
  publishMany(items: readonly PublishItem[]): Promise<Envelope[]>;
  /** Publishes envelopes built earlier (the outbox relay); resolves when all are confirmed. */
  publishEnvelopes(envelopes: readonly Envelope[]): Promise<void>;
  /** Declares the consumer's queues and consumes; resolves once consuming (or registered during an outage). */
  subscribe<S extends EventSchemas>(options: SubscribeOptions<S>): Promise<Subscription>;
  /** Serves request/reply `name` on the durable classic queue `rpc.<name>`. */
  serve<S extends z.ZodType, Out>(
    name: string,
    schema: S,
    handler: RpcHandler<z.output<S>, Out>,
  ): Promise<Served>;
  /** Asks `name`; the reply's data, validated by `options.schema` when given. */
  request<R extends z.ZodType>(
    name: string,
    payload: unknown,
    options: { timeoutMs?: number; schema: R },
  ): Promise<z.output<R>>;
  request<T = unknown>(
    name: string,
    payload: unknown,
    options?: { timeoutMs?: number },
  ): Promise<T>;
  /** Connected, with a publishing channel (for /readyz). */
  ready(): boolean;
  stats(): BusStatsSnapshot;
  /** Graceful: stop consuming, wait for handlers in flight and confirms, close. Idempotent. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json';

/**
 * The service's RabbitMQ client: ONE connection (re-established with backoff by amqplib's
 * recovery after a broker restart or a network loss), a confirm channel for publishing,
 * a channel per consumer and one for requests. After each (re)connection the topology is
 * declared again and every consumer resumes. Publishes made while the broker is away wait
 * in a bounded queue and are confirmed after the reconnection; a channel that closes on
 * its own (while the connection lives) makes the bus reconnect as a whole.
 */
export async function createBus(options: BusOptions): Promise<Bus> {
  const {
    service,
    prefetch = 20,
    queueType = 'quorum',
    legacyRecheckMs = 10_000,
    publishTimeoutMs = 30_000,
    maxBuffered = 10_000,
    shutdownTimeoutMs = 10_000,
    heartbeatSeconds = 15,
  } = options;
  const { initialDelayMs = 200, maxDelayMs = 5_000, initialRetries = 10 } = options.reconnect ?? {};
  const logger = options.logger.child({ component: 'bus' });
  installTracingBasics();
  const schemas = options.schemas ?? {};
  const exchange = eventsExchange(service);
  const where = describeAmqpUrl(options.url);
  const stats = newStats();
  const publisher = new ConfirmPublisher({ timeoutMs: publishTimeoutMs, maxBuffered, stats });
  const consumers = new Set<Consumer>();
  let current: ChannelModel | null = null;
  let closing = false;
  let closed: Promise<void> | undefined;

  // A channel closed while its connection lives (a channel error, a consumer cancelled
  // by the broker): reconnect as a whole, which re-declares and resumes everything.
  const onChannelLost = (model: ChannelModel, what: string) => {
    setImmediate(() => {
      if (closing || current !== model) return; // the connection itself is going: recovery handles it
      logger.warn({ what }, 'RabbitMQ channel lost; reconnecting');
      void model.close().catch(() => undefined);
    });
  };
  const rpc = new RpcClient({ logger, stats, onChannelLost });
  const consumerDeps = { logger, stats, queueType, legacyRecheckMs, onChannelLost };

  async function setup(model: ChannelModel): Promise<void> {
    const pub = await model.createConfirmChannel();
    pub.on('error', (err: Error) =>
      logger.warn({ err: { message: err.message } }, 'publish channel error'),
    );
    await pub.assertExchange(exchange, 'topic', { durable: true });
    await rpc.attach(model);
    for (const consumer of consumers) await consumer.attach(model);
    current = model;
    stats.connections++;
    pub.on('close', () => {
      publisher.detach(pub);
      onChannelLost(model, 'publisher');
    });
    publisher.attach(pub);
  }

  const connection = await amqp.connect(withHeartbeat(options.url, heartbeatSeconds), {
    clientProperties: { connection_name: service },
    noDelay: true,
    recovery: {
      initialDelay: initialDelayMs,
      maxDelay: maxDelayMs,
      factor: 2,
      jitter: 0.2,
      initialMaxRetries: initialRetries,
      waitForConnect: false,
      setup,
    },
  });
  connection.on('connect', () => logger.info({ amqp: where }, 'connected to RabbitMQ'));
  connection.on('disconnect', (err: Error) => {
    current = null;
    publisher.detach();
    rpc.detach();
    for (const consumer of consumers) consumer.detach();
    if (!closing)
      logger.warn({ amqp: where, err: { message: err.message } }, 'RabbitMQ connection lost');
  });
  connection.on('connect-failed', (err: Error) =>
    logger.warn(
      { amqp: where, err: { message: err.message } },
      'RabbitMQ connection attempt failed',
    ),
  );
  connection.on('reconnect-scheduled', ({ attempt, delay }: { attempt: number; delay: number }) =>
    logger.info({ amqp: where, attempt, retryInMs: delay }, 'reconnecting to RabbitMQ'),
  );
  connection.on('reconnect-failed', (err: Error) =>
    logger.error(
      { amqp: where, err: { message: err.message } },
      'gave up reconnecting to RabbitMQ',
    ),
  );
  connection.on('error', (err: Error) =>
    logger.warn({ amqp: where, err: { message: err.message } }, 'RabbitMQ error'),
  );
  connection.on('blocked', (reason: string) =>
    logger.warn({ amqp: where, reason }, 'RabbitMQ blocked publishing'),
  );
  connection.on('unblocked', () => logger.info({ amqp: where }, 'RabbitMQ unblocked publishing'));

  try {
    await connection.waitForConnect();
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw new Error(`RabbitMQ is unreachable at ${where}: ${(err as Error).message}`, {
      cause: err,
    });
  }

  function envelope<D>(type: string, data: D, envelopeOptions?: EnvelopeOptions): Envelope<D> {
    return buildEnvelope(
      type,
      data,
      envelopeOptions,
      Object.hasOwn(schemas, type) ? schemas[type] : undefined,
    );
  }

  function send(env: Envelope): Promise<void> {
    stats.published++;
    busMetrics.published(exchange, env.type);
    const headers: Record<string, unknown> = {
      'x-request-id': env.correlationId,
      'x-event-version': env.version,
    };
    // A PRODUCER span; its W3C trace context goes into the headers for the consumer.
    const span = startOutgoingSpan({
      name: `publish ${env.type}`,
      kind: 'publish',
      headers,
      correlationId: env.correlationId,
      attributes: {
        'messaging.destination.name': exchange,
        'messaging.rabbitmq.destination.routing_key': env.type,
        'messaging.message.id': env.id,
      },
    });
    const sent = publisher.publish(exchange, env.type, Buffer.from(JSON.stringify(env)), {
      persistent: true, // deliveryMode 2
      contentType: JSON_TYPE,
      messageId: env.id,
      correlationId: env.correlationId,
      type: env.type,
      appId: service,
      timestamp: Math.floor(Date.parse(env.occurredAt) / 1000),
      headers,
    });
    sent.then(
      () => span.end(),
      (err: unknown) => span.end(err),
    );
    return sent;
  }

  /** Runs `attach` on the live connection; during an outage the next setup starts it. */
  async function start(consumer: Consumer): Promise<void> {
    if (closing) throw new AppError('BUS.CLOSED', 503, 'The message bus is closed');
    consumers.add(consumer);
    const model = current;
    if (!model) return;
    try {
      await consumer.attach(model);
    } catch (err) {
      // A refusal by the broker (406 arguments differ, 403, 404) is the caller's to fix;
      // a connection lost meanwhile is not: the next setup attaches the consumer.
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'number' && code >= 400) {
        consumers.delete(consumer);
        throw err;
      }
      logger.warn(
        { queue: consumer.queue, err: { message: (err as Error).message } },
        'consumer will start on reconnection',
      );
    }
  }

  const bus: Bus = {
    service,
    exchange,
    envelope,
    async publish<D>(type: string, data: D, envelopeOptions?: EnvelopeOptions) {
      const env = envelope(type, data, envelopeOptions);
      await send(env);
      return env;
    },
    async publishMany(items) {
      const envs = items.map((item) => envelope(item.type, item.data, item.options));
      await Promise.all(envs.map(send));
      return envs;
    },
    async publishEnvelopes(envelopes) {
      await Promise.all(envelopes.map(send));
    },
    async subscribe(subscribeOptions) {
      if (!subscribeOptions.queue) throw new Error('subscribe: queue is required');
      if (subscribeOptions.bindings.length === 0)
        throw new Error('subscribe: at least one binding is required');
      const subscription = new EventSubscription(consumerDeps, service, prefetch, subscribeOptions);
      await start(subscription);
      return {
        ...subscription.info,
        close: async () => {
          consumers.delete(subscription);
          await subscription.stop(shutdownTimeoutMs);
        },
      };
    },
    async serve(name, schema, handler) {
      const server = new RpcServer(consumerDeps, prefetch, name, schema, handler);
      await start(server);
      return {
        queue: server.queue,
        close: async () => {
          consumers.delete(server);
          await server.stop(shutdownTimeoutMs);
        },
      };
    },
    request(
      name: string,
      payload: unknown,
      requestOptions?: { timeoutMs?: number; schema?: z.ZodType },
    ) {
      return rpc.request(name, payload, requestOptions);
    },
    ready: () => !closing && current !== null && publisher.attached,
    stats: () => ({ ...stats, pendingPublishes: publisher.pending, connected: current !== null }),
    close() {
      closed ??= (async () => {
        closing = true;
        // Handlers in flight may still publish: the publisher stays open until they end.
        await Promise.all([...consumers].map((consumer) => consumer.stop(shutdownTimeoutMs)));
        if (!(await publisher.drain(shutdownTimeoutMs))) {
          logger.warn({ pending: publisher.pending }, 'closing with unconfirmed publishes');
        }
        publisher.close();
        rpc.close();
        await connection.close().catch(() => undefined);
        current = null;
        logger.info({ amqp: where }, 'RabbitMQ connection closed');
      })();
      return closed;
    },
  };
  return bus;
}

/** /readyz check for the bus. */
export function busReadiness(bus: Pick<Bus, 'ready'>, name = 'rabbitmq'): ReadinessCheck {
  return {
    name,
    check: async () => {
      if (!bus.ready()) throw new Error('not connected to RabbitMQ');
    },
  };
}

/** `amqp://host:port/vhost`, without credentials (for logs and errors). */
export function describeAmqpUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname || '/'}`;
  } catch {
    return 'the configured AMQP_URL';
  }
}

function withHeartbeat(url: string, seconds: number): string {
  try {
    const u = new URL(url);
    if (!u.searchParams.has('heartbeat')) u.searchParams.set('heartbeat', String(seconds));
    return u.toString();
  } catch {
    return url;
  }
}
