import type { Response } from 'express';
import { GENERATION_STREAM_EVENTS, type StreamError } from '@aict/contracts';

/**
 * Server-sent events of a streamed generation (contracts http/generation.ts): the first
 * `delta` at once (time to first token), later pieces coalesced to one write every `flushMs`,
 * then one `done` or one `error`, then the end.
 */
export class EventStream {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  private started = false;

  constructor(
    private readonly res: Response,
    private readonly flushMs: number,
  ) {}

  open(): void {
    this.res.status(200).set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    this.res.flushHeaders();
  }

  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded;
  }

  delta(text: string): void {
    if (this.closed || text === '') return;
    this.pending += text;
    if (this.flushMs === 0 || !this.started) {
      this.started = true;
      return this.flush();
    }
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  done(body: unknown): void {
    this.finish(GENERATION_STREAM_EVENTS.done, body);
  }

  error(error: StreamError): void {
    this.finish(GENERATION_STREAM_EVENTS.error, error);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '' || this.closed) return;
    this.write(GENERATION_STREAM_EVENTS.delta, { text: this.pending });
    this.pending = '';
  }

  private finish(event: string, data: unknown): void {
    this.flush();
    if (this.closed) return;
    this.write(event, data);
    this.ended = true;
    this.res.end();
  }

  private write(event: string, data: unknown): void {
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}

/** The client asked for a stream (`Accept: text/event-stream`). */
export function wantsEventStream(accept: string | undefined): boolean {
  return (accept ?? '').toLowerCase().includes('text/event-stream');
}
