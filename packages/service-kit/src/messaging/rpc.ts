import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage, Message } from 'amqplib';
import type { z } from 'zod';
import { currentRequestId, newRequestId, runWithContext } from '../context';
import { AppError } from '../errors';
import { toHttpError } from '../http/error-handler';
import { isWellFormedRequestId } from '../http/request-id';
import type { Logger } from '../logger';
import { startIncomingSpan, startOutgoingSpan, type MessageSpan } from '../observability/messaging';
import { busMetrics, secondsSince } from '../observability/metrics';
import { Consumer, type ConsumerDeps } from './consumer';
import { BROKER_UNAVAILABLE } from './publisher';
import type { BusStats } from './stats';

/** RabbitMQ's direct reply-to pseudo-queue: replies without a reply queue per caller. */
const REPLY_TO = 'amq.rabbitmq.reply-to';

const JSON_TYPE = 'application/json';

/**
 * The queue a request/reply endpoint is served from: a classic queue whatever the bus's
 * type. A request lives no longer than its caller's deadline and is not worth a quorum
 * write: measured with bench/bus (BENCH_QUEUE_TYPE), a quorum request queue took the
 * request/reply median from 0.35–0.44 ms to 1.14 ms. A request lost with a broker fails its
 * caller's deadline (503), as it did before.
 */
export function rpcQueue(name: string): string {
  return `rpc.${name}`;
}

/** What crosses the wire back: the handler's result, or an error without internals. */
export type RpcReply =
  | { ok: true; data?: unknown }
  | { ok: false; error: { code: string; status: number; message: string; details?: unknown } };

export interface RpcContext {
  requestId: string;
}

export type RpcHandler<In, Out> = (payload: In, ctx: RpcContext) => Promise<Out> | Out;

/**
 * Serves `rpc.<name>`: validates the payload with `schema` (→ VALIDATION.FAILED, 400),
 * runs the handler inside the caller's request context and answers on `replyTo` with the
 * caller's `correlationId`. Errors are answered like HTTP errors (an AppError keeps its
 * code, status, message and details; anything unexpected is logged and answered
 * `INTERNAL` 500 without internals). The request is acked once the reply is sent.
 */
export class RpcServer<S extends z.ZodType, Out> extends Consumer {
  constructor(
    deps: ConsumerDeps,
    prefetch: number,
    readonly name: string,
    private readonly schema: S,
    private readonly handler: RpcHandler<z.output<S>, Out>,
  ) {
    super(deps, rpcQueue(name), prefetch);
  }

  protected async declare(ch: ConfirmChannel): Promise<void> {
    await ch.assertQueue(this.queue, { durable: true });
  }

  protected async process(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const { replyTo, correlationId } = msg.properties;
    const started = process.hrtime.bigint();
    // A SERVER span, child of the caller's (W3C trace context in the headers); its trace
    // id is the request id of the handler's logs.
    const span = startIncomingSpan({
      name: `serve ${this.name}`,
      kind: 'serve',
      headers: msg.properties.headers,
      attributes: { 'messaging.destination.name': this.queue, 'rpc.method': this.name },
    });
    const header: unknown = msg.properties.headers?.['x-request-id'];
    const requestId = span.traceId ?? (isWellFormedRequestId(header) ? header : newRequestId());
    await span.run(() =>
      runWithContext({ requestId }, async () => {
        let body: Buffer;
        let failure: unknown;
        try {
          const data = await this.answer(msg);
          body = Buffer.from(JSON.stringify({ ok: true, data } satisfies RpcReply));
        } catch (err) {
          failure = err;
          const { status, body: error, unexpected } = toHttpError(err);
          if (unexpected) this.deps.logger.error({ err, rpc: this.name }, 'request handler failed');
          const reply: RpcReply = {
            ok: false,
            error: { code: error.code, status, message: error.message },
          };
          if (error.details !== undefined) reply.error.details = error.details;
          body = Buffer.from(JSON.stringify(reply));
        }
        if (typeof replyTo === 'string' && replyTo) {
          try {
            ch.publish('', replyTo, body, {
              correlationId,
              contentType: JSON_TYPE,
              headers: { 'x-request-id': requestId },
            });
          } catch (err) {
            this.deps.logger.warn({ err, rpc: this.name }, 'could not send the reply');
          }
        }
        this.deps.stats.served++;
        this.ack(ch, msg);
        busMetrics.rpcServed(
          this.name,
          failure === undefined ? 'ok' : 'error',
          secondsSince(started),
        );
        span.end(failure);
      }),
    );
  }

  private async answer(msg: ConsumeMessage): Promise<Out> {
    let payload: unknown;
    try {
      payload = JSON.parse(msg.content.toString('utf8'));
    } catch {
      throw new AppError('VALIDATION.FAILED', 400, 'Request is not JSON');
    }
    const parsed = this.schema.safeParse(payload);
    if (!parsed.success) throw parsed.error;
    return this.handler(parsed.data as z.output<S>, {
      requestId: currentRequestId() ?? newRequestId(),
    });
  }
}

export interface RequestOptions {
  /** Default 5000 ms; then AppError RPC.TIMEOUT (503, retryable). */
  timeoutMs?: number;
  /** Validates the reply's data (→ RPC.BAD_REPLY, 502). */
  schema?: z.ZodType;
}

interface PendingRequest {
  name: string;
  correlationId: string;
  body: Buffer;
  requestId: string;
  deadline: number;
  sent: boolean;
  schema: z.ZodType | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Trace context (`traceparent`) for the request's headers. */
  headers: Record<string, unknown>;
  span: MessageSpan;
  started: bigint;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

export interface RpcClientDeps {
  logger: Logger;
  stats: BusStats;
  onChannelLost: (model: ChannelModel, what: string) => void;
}

/**
 * Sends requests on one channel that also consumes the direct reply-to pseudo-queue.
 * Requests made while the broker is unreachable wait for the connection (within their
 * timeout). A request whose reply can no longer arrive (channel lost) fails with
 * RPC.UNAVAILABLE; a request nobody serves (no queue) is returned by the broker and
 * fails at once with RPC.UNAVAILABLE.
 */
export class RpcClient {
  private channel: Channel | null = null;
  private readonly pending = new Map<string, PendingRequest>();
  private closed = false;

  constructor(private readonly deps: RpcClientDeps) {}

  async attach(model: ChannelModel): Promise<void> {
    const ch = await model.createChannel();
    ch.on('error', (err: Error) =>
      this.deps.logger.warn({ err: { message: err.message } }, 'request channel error'),
    );
    ch.on('return', (msg: Message) => this.onReturn(msg));
    await ch.consume(REPLY_TO, (msg) => msg && this.onReply(msg), { noAck: true });
    this.channel = ch;
    ch.on('close', () => {
      if (this.channel !== ch) return;
      this.detach();
      if (!this.closed) this.deps.onChannelLost(model, 'request channel');
    });
    for (const req of this.pending.values()) if (!req.sent) this.send(req);
  }

  /** The channel is gone: replies to requests already sent can no longer arrive. */
  detach(): void {
    this.channel = null;
    for (const req of [...this.pending.values()]) {
      if (req.sent) {
        this.finish(
          req,
          new AppError(
            'RPC.UNAVAILABLE',
            503,
            'The connection to the message broker was lost, please try again in a few seconds.',
          ),
        );
      }
    }
  }

  close(): void {
    this.closed = true;
    this.channel = null;
    for (const req of [...this.pending.values()]) {
      this.finish(req, new AppError('BUS.CLOSED', 503, 'The message bus is closed'));
    }
  }

  request<T>(name: string, payload: unknown, options: RequestOptions = {}): Promise<T> {
    if (this.closed)
      return Promise.reject(new AppError('BUS.CLOSED', 503, 'The message bus is closed'));
    const timeoutMs = options.timeoutMs ?? 5000;
    let body: Buffer;
    try {
      body = Buffer.from(JSON.stringify(payload ?? null));
    } catch (err) {
      return Promise.reject(err);
    }
    const headers: Record<string, unknown> = {};
    // A CLIENT span; its W3C trace context goes into the request's headers.
    const span = startOutgoingSpan({
      name: `request ${name}`,
      kind: 'request',
      headers,
      attributes: { 'messaging.destination.name': rpcQueue(name), 'rpc.method': name },
    });
    return new Promise<T>((resolve, reject) => {
      const req: PendingRequest = {
        name,
        correlationId: randomUUID(),
        body,
        requestId: currentRequestId() ?? span.traceId ?? newRequestId(),
        deadline: Date.now() + timeoutMs,
        sent: false,
        schema: options.schema,
        timer: undefined,
        headers,
        span,
        started: process.hrtime.bigint(),
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      req.timer = setTimeout(
        () =>
          this.finish(
            req,
            // Never sent, or the connection is down: the broker was the problem; else nobody
            // answered in time (a service down, or one still reconnecting after a broker
            // restart). Either way a retry later may work: 503 (the error handler adds
            // Retry-After), with a sentence for the user.
            !req.sent || !this.channel
              ? new AppError('RPC.UNAVAILABLE', 503, BROKER_UNAVAILABLE)
              : new AppError(
                  'RPC.TIMEOUT',
                  503,
                  'A service did not answer in time, please try again in a few seconds.',
                ),
          ),
        timeoutMs,
      );
      this.pending.set(req.correlationId, req);
      if (this.channel) this.send(req);
    });
  }

  private send(req: PendingRequest): void {
    const ch = this.channel;
    if (!ch) return;
    try {
      ch.publish('', rpcQueue(req.name), req.body, {
        correlationId: req.correlationId,
        replyTo: REPLY_TO,
        contentType: JSON_TYPE,
        // A request nobody took in time is dropped by the broker instead of being served late.
        expiration: String(Math.max(1, req.deadline - Date.now())),
        mandatory: true,
        headers: { ...req.headers, 'x-request-id': req.requestId },
      });
      req.sent = true;
      this.deps.stats.requests++;
    } catch (err) {
      if ((err as Error)?.name === 'IllegalOperationError') return; // sent on the next channel
      this.finish(req, err as Error);
    }
  }

  private onReply(msg: ConsumeMessage): void {
    const req = this.pending.get(String(msg.properties.correlationId));
    if (!req) return; // a late reply to a request that timed out
    let reply: RpcReply;
    try {
      reply = JSON.parse(msg.content.toString('utf8')) as RpcReply;
    } catch {
      this.finish(req, new AppError('RPC.BAD_REPLY', 502, `Invalid reply from ${req.name}`));
      return;
    }
    if (!reply.ok) {
      const { code, status, message, details } = reply.error ?? {};
      this.finish(
        req,
        new AppError(
          String(code ?? 'INTERNAL'),
          Number(status) || 500,
          String(message ?? 'Internal error'),
          {
            details,
          },
        ),
      );
      return;
    }
    if (req.schema) {
      const parsed = req.schema.safeParse(reply.data);
      if (!parsed.success) {
        this.finish(req, new AppError('RPC.BAD_REPLY', 502, `Invalid reply from ${req.name}`));
        return;
      }
      this.finish(req, undefined, parsed.data);
      return;
    }
    this.finish(req, undefined, reply.data);
  }

  private onReturn(msg: Message): void {
    const req = this.pending.get(String(msg.properties.correlationId));
    if (req)
      this.finish(req, new AppError('RPC.UNAVAILABLE', 503, `No service answers ${req.name}`));
  }

  private finish(req: PendingRequest, err?: Error, value?: unknown): void {
    if (this.pending.get(req.correlationId) !== req) return;
    this.pending.delete(req.correlationId);
    clearTimeout(req.timer);
    busMetrics.rpcCall(req.name, rpcResult(err), secondsSince(req.started));
    req.span.end(err);
    if (err) req.reject(err);
    else req.resolve(value);
  }
}

function rpcResult(err: Error | undefined): string {
  if (!err) return 'ok';
  const code = err instanceof AppError ? err.code : undefined;
  if (code === 'RPC.TIMEOUT') return 'timeout';
  if (code === 'RPC.UNAVAILABLE') return 'unavailable';
  if (code === 'BUS.CLOSED') return 'closed';
  return 'error';
}
