import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { AppError, isAppError } from '../errors';
import {
  databaseUnavailable,
  isDatabaseUnavailable,
  isNetworkOrStoreUnavailable,
  serviceUnavailable,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from '../unavailable';

/** The body of every error answer. */
export interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

export interface HttpError {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
  /** True when the error is ours to fix (logged at `error`, answered without internals). */
  unexpected: boolean;
}

export interface IssueDetail {
  path: string;
  message: string;
}

const INTERNAL: ErrorBody = { code: 'INTERNAL', message: 'Internal server error' };

/** The 400 answer for a list of zod issues: the first message, and each issue's path. */
export function validationFailed(issues: readonly z.core.$ZodIssue[]): ErrorBody {
  const details: IssueDetail[] = issues.map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.message,
  }));
  return { code: 'VALIDATION.FAILED', message: details[0]?.message ?? 'Invalid request', details };
}

/**
 * Maps anything thrown in a request to its HTTP answer: AppError as it says; zod,
 * mongoose validation and cast errors → 400; duplicate key (11000) → 409; body-parser
 * errors → 413/400/415; the document store unreachable (or its socket broken mid-command) →
 * 503 DATABASE.UNAVAILABLE, another bare socket error → 503 SERVICE.UNAVAILABLE (both with
 * Retry-After); anything else → 500
 * without internals.
 */
export function toHttpError(err: unknown): HttpError {
  if (!isAppError(err) && isDatabaseUnavailable(err)) return toHttpError(databaseUnavailable(err));
  // A bare socket error of some other server (the database's are marked: isDatabaseUnavailable).
  if (!isAppError(err) && isNetworkOrStoreUnavailable(err))
    return toHttpError(serviceUnavailable(err));
  if (isAppError(err)) {
    const body: ErrorBody = { code: err.code, message: err.message };
    if (err.details !== undefined) body.details = err.details;
    return {
      status: err.status,
      body,
      headers: withRetryAfter(err.status, err.headers),
      unexpected: err.status >= 500,
    };
  }
  if (err instanceof z.ZodError)
    return { status: 400, body: validationFailed(err.issues), unexpected: false };

  const e = (typeof err === 'object' && err !== null ? err : {}) as Record<string, unknown>;

  if (e.name === 'ValidationError' && typeof e.errors === 'object' && e.errors !== null) {
    // mongoose.Error.ValidationError: { errors: { [path]: { path, message } } }
    const details: IssueDetail[] = Object.entries(
      e.errors as Record<string, { path?: string; message?: string }>,
    ).map(([path, v]) => ({ path: v.path ?? path, message: v.message ?? 'Invalid value' }));
    return {
      status: 400,
      body: {
        code: 'VALIDATION.FAILED',
        message: details[0]?.message ?? 'Invalid request',
        details,
      },
      unexpected: false,
    };
  }
  if (e.name === 'CastError' && typeof e.path === 'string') {
    const message = `Invalid ${e.path}`;
    return {
      status: 400,
      body: { code: 'VALIDATION.FAILED', message, details: [{ path: e.path, message }] },
      unexpected: false,
    };
  }
  if (isDuplicateKey(e)) {
    const fields = Object.keys((e.keyPattern ?? e.keyValue ?? {}) as object);
    const body: ErrorBody = { code: 'CONFLICT.DUPLICATE', message: 'Already exists' };
    if (fields.length > 0) body.details = { fields };
    return { status: 409, body, unexpected: false };
  }
  // body-parser / http-errors
  if (e.type === 'entity.too.large')
    return {
      status: 413,
      body: { code: 'REQUEST.TOO_LARGE', message: 'Request body is too large' },
      unexpected: false,
    };
  if (e.type === 'entity.parse.failed')
    return {
      status: 400,
      body: { code: 'REQUEST.MALFORMED_JSON', message: 'Malformed JSON body' },
      unexpected: false,
    };
  const status =
    typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 0;
  if (e.expose === true && status >= 400 && status < 500) {
    const code = status === 415 ? 'REQUEST.UNSUPPORTED_MEDIA_TYPE' : 'REQUEST.INVALID';
    return {
      status,
      body: { code, message: String(e.message || 'Bad request') },
      unexpected: false,
    };
  }
  return { status: 500, body: INTERNAL, unexpected: true };
}

/** A 503 always tells the client when to try again (Retry-After), as RFC 9110 suggests. */
function withRetryAfter(
  status: number,
  headers: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (status !== 503) return headers;
  if (Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'retry-after'))
    return headers;
  return { ...headers, 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
}

function isDuplicateKey(e: Record<string, unknown>): boolean {
  if (e.code === 11000 || e.code === 11001) return true;
  const writeErrors = e.writeErrors;
  return (
    Array.isArray(writeErrors) && writeErrors.some((w) => (w as { code?: unknown })?.code === 11000)
  );
}

/**
 * The last middleware of every app. Answers with `toHttpError`; logs unexpected
 * errors with the request id (the logger's mixin adds it) and never lets one escape.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const mapped = toHttpError(err);
    if (mapped.unexpected) {
      logger.error(
        { err, req: { method: req.method, url: req.originalUrl.split('?')[0] } },
        'request failed',
      );
    } else {
      logger.debug({ code: mapped.body.code, status: mapped.status }, 'request rejected');
    }
    if (res.headersSent) {
      // Too late for an answer (a stream broke half-way): cut the connection so the
      // client sees a truncated response rather than a complete-looking one.
      res.destroy();
      return;
    }
    if (mapped.headers) res.set(mapped.headers);
    res.status(mapped.status).json(mapped.body);
  };
}

/** 404 JSON for every request no route answered. */
export function notFound(): RequestHandler {
  return (req, _res, next) => {
    next(new AppError('NOT_FOUND', 404, `Cannot ${req.method} ${req.path}`));
  };
}
