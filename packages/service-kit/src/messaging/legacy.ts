import type { ChannelModel, ConfirmChannel, GetMessage, Options } from 'amqplib';
import type { Logger } from '../logger';

/**
 * Moving off the classic queues of an earlier version. Work queues became quorum queues, and a
 * queue's type cannot change: redeclaring a classic queue as a quorum queue fails with
 * PRECONDITION_FAILED (406) and closes the channel. So the quorum queues have names of their
 * own (`<name>.v2`), and each consumer, once it consumes, empties the classic queue of its
 * plain name into its new queue and deletes it:
 *   - absent (a new installation, or already moved): nothing to do;
 *   - consumed (an instance of the earlier version still runs, during a rolling upgrade):
 *     left alone and looked at again later; both queues are bound meanwhile, so an event may
 *     be handled by both versions (consumers are idempotent by event id);
 *   - otherwise each message is re-published (properties and headers kept, confirmed) into
 *     the new queue, then acked; the classic queue is deleted only if still empty and unused.
 */
export interface LegacyQueue {
  /** The classic queue of the earlier version. */
  from: string;
  /** The queue its messages go to. */
  to: string;
}

/** `done`: gone or moved and deleted; `retry`: still in use, or the move was interrupted. */
export type LegacyOutcome = 'done' | 'retry';

const noop = () => undefined;

function codeOf(err: unknown): unknown {
  return (err as { code?: unknown })?.code;
}

export async function moveLegacyQueue(
  model: ChannelModel,
  from: string,
  to: string,
  logger: Logger,
): Promise<LegacyOutcome> {
  let ch: ConfirmChannel;
  try {
    ch = await model.createConfirmChannel();
  } catch {
    return 'retry'; // the connection is going: the next one starts over
  }
  ch.on('error', noop); // a refused check or delete closes this channel only
  try {
    let consumers: number;
    try {
      consumers = (await ch.checkQueue(from)).consumerCount;
    } catch (err) {
      if (codeOf(err) === 404) return 'done';
      throw err;
    }
    if (consumers > 0) {
      logger.info({ queue: from, consumers }, 'classic queue of an earlier version still in use');
      return 'retry';
    }
    let moved = 0;
    for (;;) {
      const msg = await ch.get(from, { noAck: false });
      if (msg === false) break;
      await republish(ch, to, msg);
      ch.ack(msg);
      moved++;
    }
    await ch.deleteQueue(from, { ifUnused: true, ifEmpty: true });
    logger.info(
      { queue: from, into: to, moved },
      'classic queue of an earlier version moved and deleted',
    );
    return 'done';
  } catch (err) {
    logger.warn(
      { queue: from, err: { message: (err as Error).message } },
      'could not move the classic queue of an earlier version yet; will try again',
    );
    return 'retry';
  } finally {
    await ch.close().catch(noop);
  }
}

/** Deletes an exchange of the earlier topology once nothing is bound to it. */
export async function deleteLegacyExchange(model: ChannelModel, exchange: string): Promise<void> {
  try {
    const ch = await model.createChannel();
    ch.on('error', noop);
    await ch.deleteExchange(exchange, { ifUnused: true }).catch(noop);
    await ch.close().catch(noop);
  } catch {
    /* the connection is going; the exchange is harmless */
  }
}

function republish(ch: ConfirmChannel, queue: string, msg: GetMessage): Promise<void> {
  const p = msg.properties;
  const options: Options.Publish = { persistent: true, headers: { ...p.headers } };
  if (p.contentType) options.contentType = p.contentType;
  if (p.contentEncoding) options.contentEncoding = p.contentEncoding;
  if (p.correlationId) options.correlationId = p.correlationId;
  if (p.replyTo) options.replyTo = p.replyTo;
  if (p.expiration) options.expiration = p.expiration;
  if (p.messageId) options.messageId = p.messageId;
  if (p.timestamp) options.timestamp = p.timestamp;
  if (p.type) options.type = p.type;
  if (p.appId) options.appId = p.appId;
  return new Promise<void>((resolve, reject) => {
    ch.publish('', queue, msg.content, options, (err: unknown) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
    );
  });
}
