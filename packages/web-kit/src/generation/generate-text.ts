import type { GenerateResponse } from '@aict/contracts';
import { ApiError, apiRequest, readJson } from '../api/http';
import { readSseEvents } from './sse';

// Values of @aict/contracts' http/generation.ts (its root entry brings zod, so web-kit keeps
// copies; generation.test.ts fails when they drift).
export const STREAM_EVENTS = { delta: 'delta', done: 'done', error: 'error' } as const;
export const IDEMPOTENCY_HEADER = 'idempotency-key';

export type GenerationPath = '/api/generate' | '/api/generate-reply';

export interface GenerateTextOptions {
  signal?: AbortSignal;
  /** Each piece of the answer as it arrives, with the whole text so far. */
  onDelta?: (delta: string, full: string) => void;
  /** Makes the request safe to retry: the server runs one generation per key. */
  idempotencyKey?: string;
}

/** The final body: `result.text` (or an image URL) and the stored content's id. */
export type GenerationResult = GenerateResponse;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * POSTs a generation asking for a stream (`Accept: text/event-stream`) and resolves with the
 * `done` body. A server that answers JSON instead resolves with that body. Non-OK answers and
 * `error` events reject with ApiError ('{status}: {body text}', SPEC §8); errorMessage() then
 * gives the server's message. Aborting the signal stops the request (AbortError).
 */
export async function generateText(
  path: GenerationPath,
  body: unknown,
  { signal, onDelta, idempotencyKey }: GenerateTextOptions = {},
): Promise<GenerationResult> {
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (idempotencyKey) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
  const res = await apiRequest('POST', path, body, { headers, signal });
  const type = res.headers?.get('content-type') ?? '';
  if (!type.includes('text/event-stream') || !res.body) return readJson<GenerationResult>(res);

  let full = '';
  for await (const { event, data } of readSseEvents(res.body)) {
    const payload = parseJson(data) as Record<string, unknown> | undefined;
    if (event === STREAM_EVENTS.delta) {
      const delta = typeof payload?.text === 'string' ? payload.text : '';
      if (!delta) continue;
      full += delta;
      onDelta?.(delta, full);
    } else if (event === STREAM_EVENTS.done) {
      return payload as unknown as GenerationResult;
    } else if (event === STREAM_EVENTS.error) {
      const status = typeof payload?.status === 'number' ? payload.status : 500;
      const { status: _status, ...rest } = payload ?? {};
      throw new ApiError(status, '', JSON.stringify(rest));
    }
  }
  signal?.throwIfAborted();
  throw new ApiError(502, 'Bad Gateway', 'The answer ended before it was complete.');
}
