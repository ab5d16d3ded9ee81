import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ImageStore } from './lib/image-store';
import type { MultipartBody } from './lib/multipart';
import type { SimHttpError } from './lib/openai-errors';
import type { RecordedRequest } from './recorded-request';
import type { SimState } from './sim-state';

/** The request body, decoded by its content type before any failure rule or auth check. */
export type DecodedInput =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'multipart'; body: MultipartBody }
  | { kind: 'invalid'; error: SimHttpError }
  | { kind: 'other'; contentType: string };

/** Everything a route needs about one request, and the few ways it may answer. */
export class SimContext {
  private readonly started = performance.now();
  /** Set by a truncated_stream rule: SSE events (or, for JSON, nothing whole) before the cut. */
  truncateAfter: number | null = null;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly url: URL,
    readonly state: SimState,
    readonly images: ImageStore,
    readonly record: RecordedRequest,
    readonly signal: AbortSignal,
    readonly input: DecodedInput,
  ) {}

  /** `http://<host the client used>` for URLs the simulator hands out. */
  get origin(): string {
    return `http://${this.req.headers.host ?? `${this.req.socket.localAddress}:${this.req.socket.localPort}`}`;
  }

  get config() {
    return this.state.settings;
  }

  elapsedMs(): number {
    return Math.round(performance.now() - this.started);
  }

  touch(): void {
    this.state.touch(this.record);
  }

  markHeadersSent(): void {
    this.record.timings.headersSentMs = this.elapsedMs();
    this.touch();
  }

  markFirstToken(): void {
    this.record.timings.firstTokenMs ??= this.elapsedMs();
    this.touch();
  }

  /** Sends a whole body; under a truncated_stream rule, sends half of it and cuts the connection. */
  send(status: number, body: Buffer, headers: Record<string, string>): void {
    this.res.writeHead(status, { ...headers, 'content-length': String(body.length) });
    this.markHeadersSent();
    if (this.truncateAfter !== null) {
      this.res.write(body.subarray(0, Math.floor(body.length / 2)));
      this.truncate();
      return;
    }
    this.res.end(body);
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.send(status, Buffer.from(JSON.stringify(body)), {
      'content-type': 'application/json',
      ...headers,
    });
  }

  /** Cuts the connection without finishing the response (recorded as truncated, not aborted). */
  truncate(): void {
    this.record.truncated = true;
    // Half-close after what was written (so it reaches the client), then make sure it is gone.
    this.res.socket?.end();
    setTimeout(() => this.res.destroy(), 1000).unref();
  }
}
