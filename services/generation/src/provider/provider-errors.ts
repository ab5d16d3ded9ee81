import OpenAI from 'openai';
import { ERRORS, ErrorCode } from '@aict/contracts';
import { AppError } from '@aict/service-kit';

export function codeError(code: ErrorCode, message?: string, headers?: Record<string, string>) {
  const { status, message: fallback } = ERRORS[code];
  return new AppError(code, status, message ?? fallback, { headers });
}

/** Thrown inside a stream when the provider stopped before it said it was done. */
export class TruncatedError extends Error {
  constructor() {
    super('the provider stream ended early');
    this.name = 'TruncatedError';
  }
}

/** Our abort reasons, so that an aborted call can tell a deadline from a client who left. */
export const ABORT = { timeout: 'provider-timeout', client: 'client-gone' } as const;

/**
 * One distinct error per provider failure. The provider's own message is not passed on: it
 * can quote the key (OpenAI's 401 body shows part of it).
 */
export function toProviderError(err: unknown, signal?: AbortSignal): AppError {
  if (err instanceof AppError) return err;
  if (signal?.aborted && signal.reason === ABORT.timeout) return codeError('PROVIDER.TIMEOUT');
  if (err instanceof TruncatedError) return codeError('PROVIDER.TRUNCATED');
  if (err instanceof OpenAI.AuthenticationError || err instanceof OpenAI.PermissionDeniedError)
    return codeError('PROVIDER.INVALID_KEY');
  if (err instanceof OpenAI.RateLimitError && err.code === 'insufficient_quota')
    return codeError('PROVIDER.QUOTA_EXCEEDED');
  if (err instanceof OpenAI.RateLimitError) {
    const retryAfter = retryAfterMs(err);
    return codeError(
      'PROVIDER.RATE_LIMITED',
      'The AI provider is busy (rate limited), please try again later',
      retryAfter === null ? undefined : { 'retry-after': String(Math.ceil(retryAfter / 1000)) },
    );
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) return codeError('PROVIDER.TIMEOUT');
  return codeError('PROVIDER.UNAVAILABLE');
}

/** The wait a 429 asks for (Retry-After seconds or date, retry-after-ms), or null. */
export function retryAfterMs(err: InstanceType<typeof OpenAI.APIError>): number | null {
  const headers = err.headers;
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && headers?.get('retry-after-ms')) return ms;
  const value = headers?.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

/**
 * How long to wait before retry number `retry + 1`: at least what the provider asked for
 * (Retry-After), else an exponential backoff (250 ms, 500 ms, … at most 4 s); either way with
 * random jitter, so that the calls a 429 stopped together do not all come back at once.
 * `random` is in [0, 1).
 */
export function retryDelayMs(retry: number, askedMs: number | null, random = Math.random()) {
  if (askedMs !== null) return askedMs + Math.min(1_000, 100 + askedMs * 0.2) * random;
  return Math.min(250 * 2 ** retry, 4_000) * (0.75 + random / 2);
}

/** Worth another attempt: rate limited (not out of quota) or a server error. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof OpenAI.RateLimitError) return err.code !== 'insufficient_quota';
  return err instanceof OpenAI.InternalServerError;
}
