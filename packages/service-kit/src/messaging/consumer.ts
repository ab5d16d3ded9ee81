import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { runWithContext } from '../context';
import type { Logger } from '../logger';
import { startIncomingSpan } from '../observability/messaging';
import { busMetrics, secondsSince, type ConsumeResult } from '../observability/metrics';
import { decodeEnvelope, type EventFrom, type EventSchemas } from './envelope';
import { deleteLegacyExchange, moveLegacyQueue, type LegacyQueue } from './legacy';
import type { BusStats } from './stats';

export type QueueType = 'classic' | 'quorum';

export interface ConsumerDeps {
  logger: Logger;
  stats: BusStats;
  queueType: QueueType;
  /** Pause between looks at a classic queue of an earlier version still in use (see `legacy.ts`). */
  legacyRecheckMs: number;
  /** The consumer's channel closed while its connection is up: the bus recovers it. */
  onChannelLost: (model: ChannelModel, what: string) => void;
}

const noop = () => undefined;

/**
 * Deliveries of one message before a quorum work queue dead-letters it (RabbitMQ 4's default,
 * set explicitly so that 3.x brokers behave the same). Handler failures never count here: they
 * go through the retry queue as new messages; only a consumer that dies (or a channel that
 * closes) before settling the message, or a requeue at shutdown, counts.
 */
export const DELIVERY_LIMIT = 20;

/**
 * Quorum queues have names of their own, `<name>.v2`: a queue cannot change its type, and a
 * deployment of an earlier version holds classic queues under the plain names. Those are
 * moved into the new queues and deleted (see `legacy.ts`).
 */
export const QUORUM_SUFFIX = '.v2';

/**
 * One queue consumed on its own confirm channel, with manual acks and a bounded
 * prefetch. Re-attached to each new connection after a reconnect. Subclasses declare
 * their topology and handle a delivery; this class keeps the channel's life cycle and
 * counts handlers in flight so that `stop` can wait for them.
 */
export abstract class Consumer {
  private channel: ConfirmChannel | null = null;
  private consumerTag: string | null = null;
  private attaching: { model: ChannelModel; promise: Promise<void> } | null = null;
  private inflight = 0;
  private idleWaiters: Array<() => void> = [];
  private resolveStarted!: () => void;
  /** Resolves once the consumer has run on some connection. */
  readonly started = new Promise<void>((resolve) => {
    this.resolveStarted = resolve;
  });
  protected stopping = false;
  private legacyTimer: NodeJS.Timeout | undefined;
  /** The connection this consumer consumes on (null while detached). */
  private consumingOn: ChannelModel | null = null;

  protected constructor(
    protected readonly deps: ConsumerDeps,
    readonly queue: string,
    private readonly prefetch: number,
  ) {}

  protected abstract declare(ch: ConfirmChannel): Promise<void>;
  protected abstract process(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void>;
  /** Called each time consuming starts: on the first connection and after each reconnection. */
  protected consuming(): void {}
  /** Classic queues an earlier version declared for this consumer, and where their messages go. */
  protected legacyQueues(): LegacyQueue[] {
    return [];
  }
  /** Exchanges of that earlier topology, deleted once its queues are gone. */
  protected legacyExchanges(): string[] {
    return [];
  }

  /** Declares the topology and starts consuming on `model` (once per connection). */
  attach(model: ChannelModel): Promise<void> {
    if (this.attaching?.model === model) return this.attaching.promise;
    const promise = this.open(model);
    const attempt = { model, promise };
    this.attaching = attempt;
    promise.catch(() => {
      if (this.attaching === attempt) this.attaching = null;
    });
    return promise;
  }

  /** The connection is gone (its channels with it). */
  detach(): void {
    clearTimeout(this.legacyTimer);
    this.consumingOn = null;
    this.channel = null;
    this.consumerTag = null;
    this.attaching = null;
  }

  /** Stops taking messages, waits (up to `timeoutMs`) for handlers in flight, closes. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.legacyTimer);
    const ch = this.channel;
    const tag = this.consumerTag;
    if (ch && tag) await ch.cancel(tag).catch(noop);
    await this.idle(timeoutMs);
    this.channel = null;
    if (ch) await ch.close().catch(noop);
  }

  private async open(model: ChannelModel): Promise<void> {
    const ch = await model.createConfirmChannel();
    ch.on('error', (err: Error) =>
      this.deps.logger.warn(
        { err: { message: err.message }, queue: this.queue },
        'consumer channel error',
      ),
    );
    try {
      await this.declare(ch);
      await ch.prefetch(this.prefetch);
      const { consumerTag } = await ch.consume(
        this.queue,
        (msg) => this.onDelivery(model, ch, msg),
        {
          noAck: false,
        },
      );
      if (this.stopping) {
        await ch.close().catch(noop);
        return;
      }
      this.channel = ch;
      this.consumerTag = consumerTag;
      ch.on('close', () => {
        if (this.channel !== ch) return;
        this.channel = null;
        if (!this.stopping) this.deps.onChannelLost(model, `consumer of ${this.queue}`);
      });
      this.consumingOn = model;
      this.resolveStarted();
      this.consuming();
      this.migrateLegacy(model, 0);
    } catch (err) {
      await ch.close().catch(noop);
      throw err;
    }
  }

  /**
   * Moves what classic queues of an earlier version still hold into this consumer's queues
   * and deletes them (in the background; consuming has started). A classic queue still
   * consumed (an instance of the earlier version during a rolling upgrade) is looked at again
   * every `legacyRecheckMs` while this consumer runs on `model`.
   */
  private migrateLegacy(model: ChannelModel, delayMs: number): void {
    const legacy = this.legacyQueues();
    if (legacy.length === 0) return;
    clearTimeout(this.legacyTimer);
    this.legacyTimer = setTimeout(() => {
      void (async () => {
        let done = true;
        for (const { from, to } of legacy) {
          const outcome = await moveLegacyQueue(model, from, to, this.deps.logger);
          if (outcome === 'retry') done = false;
        }
        if (done) {
          for (const exchange of this.legacyExchanges())
            await deleteLegacyExchange(model, exchange);
          return;
        }
        // Again later on this connection; a new connection starts its own round.
        if (!this.stopping && this.consumingOn === model) {
          this.migrateLegacy(model, this.deps.legacyRecheckMs);
        }
      })();
    }, delayMs);
    this.legacyTimer.unref();
  }

  private onDelivery(model: ChannelModel, ch: ConfirmChannel, msg: ConsumeMessage | null): void {
    if (msg === null) {
      // Cancelled by the broker (queue deleted, node gone): recover like a lost channel.
      this.deps.logger.warn({ queue: this.queue }, 'consumer cancelled by the broker');
      if (this.channel === ch) {
        this.channel = null;
        void ch.close().catch(noop);
        if (!this.stopping) this.deps.onChannelLost(model, `consumer of ${this.queue}`);
      }
      return;
    }
    if (this.stopping) {
      this.nack(ch, msg, true);
      return;
    }
    this.inflight++;
    this.process(ch, msg)
      .catch((err: unknown) => {
        // process() settles every message itself; this is a bug guard, the broker redelivers.
        this.deps.logger.error({ err, queue: this.queue }, 'consumer failed to settle a message');
        this.nack(ch, msg, true);
      })
      .finally(() => {
        this.inflight--;
        if (this.inflight === 0 && this.idleWaiters.length > 0) {
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const wake of waiters) wake();
        }
      });
  }

  private async idle(timeoutMs: number): Promise<void> {
    if (this.inflight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.deps.logger.warn(
            { queue: this.queue, inflight: this.inflight },
            'handlers still running at shutdown',
          );
          resolve();
        }, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  // A channel that closed cannot ack: the broker requeues the message and redelivers it.
  protected ack(ch: ConfirmChannel, msg: ConsumeMessage): boolean {
    try {
      ch.ack(msg);
      return true;
    } catch {
      return false; // channel gone
    }
  }

  protected nack(ch: ConfirmChannel, msg: ConsumeMessage, requeue: boolean): void {
    try {
      ch.nack(msg, false, requeue);
    } catch {
      /* channel gone */
    }
  }

  /**
   * A durable queue of the bus's type. `work`: a queue that consumers take messages from;
   * as a quorum queue it gets an explicit delivery limit (RabbitMQ 4's default, none before),
   * so a message whose consumer keeps dying before settling it is dead-lettered, not
   * redelivered forever. Quorum queues that dead-letter do so at least once.
   */
  protected queueOptions(
    options: Options.AssertQueue = {},
    kind: 'work' | 'store' = 'store',
  ): Options.AssertQueue {
    if (this.deps.queueType === 'classic') return { durable: true, ...options };
    const args: Record<string, unknown> = { ...options.arguments, 'x-queue-type': 'quorum' };
    if (kind === 'work') args['x-delivery-limit'] = DELIVERY_LIMIT;
    if (options.deadLetterExchange !== undefined) {
      // Kept until the dead-letter target confirmed it (needs overflow reject-publish).
      args['x-dead-letter-strategy'] = 'at-least-once';
      args['x-overflow'] = 'reject-publish';
    }
    return { durable: true, ...options, arguments: args };
  }
}

/** What a handler learns about the delivery besides the event. */
export interface DeliveryInfo {
  /** 0 for the first try, then 1, 2, … for each retry. */
  attempt: number;
  /** The broker delivered it before (e.g. a consumer died before acking). */
  redelivered: boolean;
  routingKey: string;
  queue: string;
}

export type EventHandler<E> = (event: E, info: DeliveryInfo) => Promise<void> | void;

export interface SubscribeOptions<S extends EventSchemas> {
  /** Short name; the queue is `<service>.<queue>`. */
  queue: string;
  /** The publisher's exchange, e.g. `eventsExchange('workspace')` = `aict.workspace.events`. */
  exchange: string;
  /**
   * Routing keys (event types, topic patterns allowed): `['workspace.deleted']`, bound to
   * `exchange`; `{ exchange, routingKey }` binds the same queue to another exchange.
   */
  bindings: Binding[];
  /** The data schema of each event type accepted; any other type goes to the DLQ. */
  schemas: S;
  handler: EventHandler<EventFrom<S>>;
  /** Defaults to the bus's prefetch. */
  prefetch?: number;
  /** Retries after the first failure before the message goes to the DLQ (default 3). */
  maxRetries?: number;
  /** Delay before each retry (default 2000 ms); fixed per queue (it is the retry queue's TTL). */
  retryDelayMs?: number;
  /**
   * A private queue for this process alone (e.g. an in-memory view of other services'
   * state, one per gateway instance): exclusive to the connection, auto-deleted with it,
   * not durable, and without retry or dead-letter queues: an invalid message, or one its
   * handler fails on, is logged and dropped. `queue` must then be unique to the instance.
   * The broker deletes the queue when the connection drops, and with it what was published
   * meanwhile: re-read the state you keep in `onConsuming`.
   */
  exclusive?: boolean;
  /** Called each time the consumer starts consuming: first start and every reconnection. */
  onConsuming?: () => void;
}

/** A routing key on the subscription's exchange, or a routing key on another exchange. */
export type Binding = string | { exchange: string; routingKey: string };

export interface SubscriptionInfo {
  queue: string;
  /** The three below are empty for an `exclusive` subscription (it has none). */
  retryQueue: string;
  deadLetterQueue: string;
  deadLetterExchange: string;
}

const RETRY_HEADER = 'x-retry-count';
/** Why a message is in a dead-letter queue: "invalid message: …" or "handler failed N times: …". */
export const DEAD_LETTER_REASON_HEADER = 'x-dead-letter-reason';

/**
 * An event consumer. Topology, all durable, quorum queues by default:
 *   `<exchange>` (topic) ─ bindings ─► `<service>.<queue>.v2` ─ dead-letter ─► `<…>.dlx` (fanout) ► `<…>.dlq`
 *   a failed handling is re-sent to `<…>.retry` (TTL = retryDelayMs), which dead-letters it
 *   back into `<service>.<queue>.v2` with `x-retry-count` + 1. (With `queueType: 'classic'`
 *   the names have no `.v2`: the topology of the earlier version, moved away from on start.)
 * Invalid messages (not JSON, not an envelope, unknown type or version, invalid data) go
 * straight to the DLQ (nack without requeue); the consumer goes on with the next one.
 * An `exclusive` subscription has only its queue (see `SubscribeOptions.exclusive`).
 */
export class EventSubscription<S extends EventSchemas> extends Consumer {
  readonly info: SubscriptionInfo;
  private readonly maxRetries: number;
  private readonly retryDelayMs: number;
  /** The plain name of the classic queues an earlier version declared (quorum only). */
  private readonly legacyBase: string | undefined;

  constructor(
    deps: ConsumerDeps,
    service: string,
    prefetch: number,
    private readonly options: SubscribeOptions<S>,
  ) {
    const base = `${service}.${options.queue}`;
    // Exclusive queues stay classic (a quorum queue cannot be exclusive), under the plain name.
    const quorum = deps.queueType === 'quorum' && !options.exclusive;
    const queue = quorum ? `${base}${QUORUM_SUFFIX}` : base;
    super(deps, queue, options.prefetch ?? prefetch);
    this.info = options.exclusive
      ? { queue, retryQueue: '', deadLetterQueue: '', deadLetterExchange: '' }
      : {
          queue,
          retryQueue: `${queue}.retry`,
          deadLetterQueue: `${queue}.dlq`,
          deadLetterExchange: `${queue}.dlx`,
        };
    this.legacyBase = quorum ? base : undefined;
    this.maxRetries = options.maxRetries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 2000;
  }

  protected async declare(ch: ConfirmChannel): Promise<void> {
    const { queue, retryQueue, deadLetterQueue, deadLetterExchange } = this.info;
    const bindings = this.options.bindings.map((b) =>
      typeof b === 'string' ? { exchange: this.options.exchange, routingKey: b } : b,
    );
    for (const exchange of new Set([this.options.exchange, ...bindings.map((b) => b.exchange)])) {
      await ch.assertExchange(exchange, 'topic', { durable: true });
    }
    if (this.options.exclusive) {
      await ch.assertQueue(queue, { exclusive: true, autoDelete: true, durable: false });
      for (const b of bindings) await ch.bindQueue(queue, b.exchange, b.routingKey);
      return;
    }
    await ch.assertExchange(deadLetterExchange, 'fanout', { durable: true });
    await ch.assertQueue(deadLetterQueue, this.queueOptions());
    await ch.bindQueue(deadLetterQueue, deadLetterExchange, '');
    await ch.assertQueue(queue, this.queueOptions({ deadLetterExchange }, 'work'));
    await ch.assertQueue(
      retryQueue,
      this.queueOptions({
        messageTtl: this.retryDelayMs,
        deadLetterExchange: '',
        deadLetterRoutingKey: queue,
      }),
    );
    for (const b of bindings) await ch.bindQueue(queue, b.exchange, b.routingKey);
  }

  protected override legacyQueues(): LegacyQueue[] {
    const base = this.legacyBase;
    if (!base) return [];
    const { queue, deadLetterQueue } = this.info;
    return [
      // A message waiting for its retry goes straight back to the queue (its count kept).
      { from: `${base}.retry`, to: queue },
      { from: base, to: queue },
      { from: `${base}.dlq`, to: deadLetterQueue },
    ];
  }

  protected override legacyExchanges(): string[] {
    return this.legacyBase ? [`${this.legacyBase}.dlx`] : [];
  }

  protected override consuming(): void {
    try {
      this.options.onConsuming?.();
    } catch (err) {
      this.deps.logger.error({ err, queue: this.queue }, 'onConsuming failed');
    }
  }

  protected async process(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const { logger, stats } = this.deps;
    const started = process.hrtime.bigint();
    const headers = msg.properties.headers ?? {};
    const attempt = Math.max(0, Number(headers[RETRY_HEADER]) || 0);
    if (msg.fields.redelivered || attempt > 0) {
      stats.redelivered++;
      busMetrics.redelivered(this.queue);
    }

    const decoded = decodeEnvelope(msg.content, this.options.schemas);
    if (!decoded.ok) {
      stats.deadLettered++;
      busMetrics.deadLettered(this.queue, 'invalid');
      busMetrics.consumed(this.queue, this.options.exclusive ? 'dropped' : 'dead_letter', 0);
      logger.warn(
        {
          queue: this.queue,
          dropped: this.options.exclusive === true,
          reason: decoded.reason,
          issues: decoded.issues,
          event: decoded.envelope,
          messageId: msg.properties.messageId,
          routingKey: msg.fields.routingKey,
        },
        'invalid message sent to the dead-letter queue',
      );
      await this.deadLetter(ch, msg, `invalid message: ${decoded.reason}`);
      return;
    }

    const event = decoded.envelope as EventFrom<S>;
    // A CONSUMER span, child of the publisher's (W3C trace context in the headers); its
    // trace id is the request id of the handler's logs.
    const span = startIncomingSpan({
      name: `process ${event.type}`,
      kind: 'process',
      headers,
      attributes: {
        'messaging.destination.name': this.queue,
        'messaging.rabbitmq.destination.routing_key': msg.fields.routingKey,
        'messaging.message.id': event.id,
        'messaging.rabbitmq.delivery_attempt': attempt,
      },
    });
    const settled = (result: ConsumeResult, err?: unknown) => {
      busMetrics.consumed(this.queue, result, secondsSince(started));
      span.end(err);
    };
    const requestId = span.traceId ?? event.correlationId;
    await span.run(() =>
      runWithContext({ requestId, causationId: event.id }, async () => {
        const info: DeliveryInfo = {
          attempt,
          redelivered: msg.fields.redelivered,
          routingKey: msg.fields.routingKey,
          queue: this.queue,
        };
        const about = { queue: this.queue, eventId: event.id, type: event.type, attempt };
        try {
          await this.options.handler(event, info);
        } catch (err) {
          if (this.options.exclusive) {
            stats.deadLettered++;
            busMetrics.deadLettered(this.queue, 'failed');
            logger.error({ ...about, err }, 'event handler failed; message dropped');
            this.nack(ch, msg, false);
            settled('dropped', err);
            return;
          }
          if (attempt >= this.maxRetries) {
            stats.deadLettered++;
            busMetrics.deadLettered(this.queue, 'failed');
            settled('dead_letter', err);
            logger.error(
              { ...about, err },
              'event handler failed; message sent to the dead-letter queue',
            );
            const message = err instanceof Error ? err.message : String(err);
            await this.deadLetter(
              ch,
              msg,
              `handler failed ${attempt + 1} times: ${message}`.slice(0, 500),
            );
            return;
          }
          try {
            await this.sendToRetry(ch, msg, attempt + 1, err);
            stats.retried++;
            logger.warn(
              { ...about, err, retryInMs: this.retryDelayMs },
              'event handler failed; will retry',
            );
            this.ack(ch, msg);
            settled('retry', err);
          } catch (sendErr) {
            logger.error(
              { ...about, err: sendErr },
              'could not schedule a retry; message requeued',
            );
            this.nack(ch, msg, true);
            settled('requeue', err);
          }
          return;
        }
        if (this.ack(ch, msg)) {
          stats.consumed++;
          settled('ack');
        } else settled('requeue');
      }),
    );
  }

  /**
   * Moves a message to the dead-letter queue with its reason in the `x-dead-letter-reason`
   * header (a nack would dead-letter it without one): re-sent to the dead-letter exchange,
   * confirmed, then acked. If that fails, the nack dead-letters it without the reason. An
   * exclusive subscription has no dead-letter queue: the message is dropped.
   */
  private async deadLetter(ch: ConfirmChannel, msg: ConsumeMessage, reason: string) {
    if (this.options.exclusive) {
      this.nack(ch, msg, false);
      return;
    }
    try {
      await this.republish(ch, this.info.deadLetterExchange, msg, {
        [DEAD_LETTER_REASON_HEADER]: reason,
      });
      this.ack(ch, msg);
    } catch (err) {
      this.deps.logger.warn(
        { err, queue: this.queue },
        'could not add the reason to a dead letter; dead-lettered without it',
      );
      this.nack(ch, msg, false);
    }
  }

  /** Re-sends the message to the retry queue and waits for the broker's confirm. */
  private sendToRetry(
    ch: ConfirmChannel,
    msg: ConsumeMessage,
    attempt: number,
    err: unknown,
  ): Promise<void> {
    const lastError = err instanceof Error ? err.message : String(err);
    return this.republish(
      ch,
      '',
      msg,
      {
        [RETRY_HEADER]: attempt,
        'x-last-error': lastError.slice(0, 500),
      },
      this.info.retryQueue,
    );
  }

  /** Publishes a copy of `msg` with extra headers and waits for the broker's confirm. */
  private republish(
    ch: ConfirmChannel,
    exchange: string,
    msg: ConsumeMessage,
    headers: Record<string, unknown>,
    routingKey = msg.fields.routingKey,
  ): Promise<void> {
    const p = msg.properties;
    const options: Options.Publish = { persistent: true, headers: { ...p.headers, ...headers } };
    if (p.contentType) options.contentType = p.contentType;
    if (p.contentEncoding) options.contentEncoding = p.contentEncoding;
    if (p.messageId) options.messageId = p.messageId;
    if (p.correlationId) options.correlationId = p.correlationId;
    if (p.timestamp) options.timestamp = p.timestamp;
    if (p.type) options.type = p.type;
    if (p.appId) options.appId = p.appId;
    return new Promise<void>((resolve, reject) => {
      ch.publish(exchange, routingKey, msg.content, options, (confirmErr: unknown) =>
        confirmErr ? reject(confirmErr) : resolve(),
      );
    });
  }
}
