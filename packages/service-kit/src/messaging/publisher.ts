import type { ConfirmChannel, Options } from 'amqplib';
import { AppError } from '../errors';
import { busMetrics, type ConfirmResult } from '../observability/metrics';
import type { BusStats } from './stats';

/** What a caller is told while the broker cannot be reached (publishes and requests alike). */
export const BROKER_UNAVAILABLE =
  'The message broker is unavailable, please try again in a few seconds.';

interface PendingPublish {
  exchange: string;
  routingKey: string;
  content: Buffer;
  options: Options.Publish;
  deadline: number;
  resolve: () => void;
  reject: (err: Error) => void;
  settled: boolean;
}

export interface PublisherOptions {
  /** A publish not confirmed within this fails with BUS.PUBLISH_TIMEOUT. */
  timeoutMs: number;
  /** How many publishes may wait while there is no channel; beyond, BUS.UNAVAILABLE at once. */
  maxBuffered: number;
  stats: BusStats;
}

/**
 * Publishes on a confirm channel and resolves each message only when the broker has
 * confirmed it. Messages are pipelined (no waiting for one confirm before the next),
 * the channel's write buffer is respected ('drain'), and while there is no channel (the
 * broker is unreachable) they wait in a bounded queue until the next channel is attached.
 * A message whose channel closed before its confirm arrived is published again on the
 * next channel: delivery is at least once, consumers are idempotent.
 */
export class ConfirmPublisher {
  private channel: ConfirmChannel | null = null;
  private queue: PendingPublish[] = [];
  private readonly outstanding = new Set<PendingPublish>();
  private waitingDrain = false;
  private requeued: PendingPublish[] | null = null;
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly options: PublisherOptions) {
    this.sweep = setInterval(
      () => this.expire(),
      Math.min(250, Math.max(10, options.timeoutMs / 4)),
    );
    this.sweep.unref();
  }

  /** Messages not yet confirmed (queued or in flight). */
  get pending(): number {
    return this.outstanding.size;
  }

  get attached(): boolean {
    return this.channel !== null;
  }

  attach(channel: ConfirmChannel): void {
    this.channel = channel;
    this.waitingDrain = false;
    this.pump();
  }

  /** Forgets the channel (it closed); queued and unconfirmed messages wait for the next. */
  detach(channel?: ConfirmChannel): void {
    if (!channel || this.channel === channel) this.channel = null;
  }

  publish(
    exchange: string,
    routingKey: string,
    content: Buffer,
    options: Options.Publish,
  ): Promise<void> {
    if (this.closed)
      return Promise.reject(new AppError('BUS.CLOSED', 503, 'The message bus is closed'));
    if (!this.channel && this.queue.length >= this.options.maxBuffered) {
      return Promise.reject(new AppError('BUS.UNAVAILABLE', 503, BROKER_UNAVAILABLE));
    }
    return new Promise<void>((resolve, reject) => {
      const item: PendingPublish = {
        exchange,
        routingKey,
        content,
        options,
        deadline: Date.now() + this.options.timeoutMs,
        resolve,
        reject,
        settled: false,
      };
      this.outstanding.add(item);
      this.queue.push(item);
      this.pump();
    });
  }

  /** Resolves when every message has been confirmed or failed, or when `timeoutMs` passes. */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.outstanding.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      new Promise<true>((resolve) => this.idleWaiters.push(() => resolve(true))),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return drained;
  }

  /** Fails whatever is still waiting with BUS.CLOSED and refuses new messages. */
  close(): void {
    this.closed = true;
    clearInterval(this.sweep);
    for (const item of [...this.outstanding]) {
      this.settle(
        item,
        new AppError('BUS.CLOSED', 503, 'The message bus closed before the broker confirmed'),
      );
    }
    this.queue = [];
    this.channel = null;
  }

  private pump(): void {
    const ch = this.channel;
    while (ch && this.channel === ch && !this.waitingDrain && this.queue.length > 0) {
      const item = this.queue.shift() as PendingPublish;
      if (item.settled) continue;
      let flushed: boolean;
      try {
        flushed = ch.publish(item.exchange, item.routingKey, item.content, item.options, (err) =>
          this.onConfirm(item, err),
        );
      } catch (err) {
        if ((err as Error)?.name === 'IllegalOperationError') {
          // The channel closed under us: keep the message for the next one.
          this.queue.unshift(item);
          this.channel = null;
          return;
        }
        this.settle(item, err as Error); // e.g. headers too large: this message cannot be sent
        continue;
      }
      if (!flushed) {
        this.waitingDrain = true;
        ch.once('drain', () => {
          if (this.channel !== ch) return;
          this.waitingDrain = false;
          this.pump();
        });
      }
    }
  }

  private onConfirm(item: PendingPublish, err: unknown): void {
    if (item.settled) return;
    if (!err) {
      this.options.stats.confirmed++;
      this.settle(item);
      return;
    }
    if ((err as Error)?.message === 'message nacked') {
      this.settle(
        item,
        new AppError('BUS.PUBLISH_REJECTED', 503, 'The message broker refused the message'),
      );
      return;
    }
    // 'channel closed': the broker may or may not have it; send it again on the next
    // channel, ahead of newer messages, in the order they were first sent.
    if (!this.requeued) {
      this.requeued = [];
      queueMicrotask(() => {
        const batch = this.requeued ?? [];
        this.requeued = null;
        this.queue = batch.concat(this.queue);
        this.pump();
      });
    }
    this.requeued.push(item);
  }

  private expire(): void {
    const now = Date.now();
    let expired = false;
    for (const item of this.outstanding) {
      if (item.deadline > now) continue;
      expired = true;
      this.settle(
        item,
        new AppError(
          'BUS.PUBLISH_TIMEOUT',
          503,
          'The message broker did not confirm the message in time',
        ),
      );
    }
    if (expired) this.queue = this.queue.filter((item) => !item.settled);
  }

  private settle(item: PendingPublish, err?: Error): void {
    if (item.settled) return;
    item.settled = true;
    this.outstanding.delete(item);
    busMetrics.confirmed(item.exchange, confirmResult(err));
    if (err) {
      this.options.stats.publishFailed++;
      item.reject(err);
    } else {
      item.resolve();
    }
    if (this.outstanding.size === 0 && this.idleWaiters.length > 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }
}

function confirmResult(err: Error | undefined): ConfirmResult {
  if (!err) return 'ack';
  const code = err instanceof AppError ? err.code : undefined;
  if (code === 'BUS.PUBLISH_REJECTED') return 'nack';
  if (code === 'BUS.PUBLISH_TIMEOUT') return 'timeout';
  if (code === 'BUS.CLOSED') return 'closed';
  return 'error';
}
