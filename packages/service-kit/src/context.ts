import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What one unit of work (an HTTP request or a consumed message) carries along. */
export interface RequestContext {
  /** Crosses the gateway (`x-request-id`) and RabbitMQ (`correlationId`). */
  requestId: string;
  /** The envelope id of the message being handled, if any (becomes `causationId`). */
  causationId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

export function newRequestId(): string {
  return randomUUID();
}
