import { ERRORS, ErrorCode } from '@aict/contracts';
import { AppError } from './errors';

/** Seconds a client is told to wait before retrying when a dependency is down. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Names of the MongoDB driver's and mongoose's errors that mean "the server cannot be
 * reached right now" (not "your request is wrong"): a retry later may succeed.
 */
const MONGO_UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
  'MongoWaitQueueTimeoutError',
]);

/** Socket-level failures of an HTTP client (MinIO's among them). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** S3 error codes that mean the store is there but cannot serve now. */
const S3_UNAVAILABLE_CODES = new Set([
  'SlowDown',
  'ServiceUnavailable',
  'XMinioServerNotInitialized',
  'XMinioStorageFull',
  'InternalError',
]);

function causes(err: unknown): Array<Record<string, unknown>> {
  const chain: Array<Record<string, unknown>> = [];
  let current: unknown = err;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    chain.push(current as Record<string, unknown>);
    const e = current as { cause?: unknown; errors?: unknown };
    // AggregateError (happy eyeballs): look at the first attempt's error too.
    current = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
  }
  return chain;
}

const FROM_DATABASE = Symbol('aict.fromDatabase');

/**
 * Marks an error a MongoDB command failed with (the driver's `commandFailed` event carries the
 * very error it then throws): a bare socket error the driver lets through when the server dies
 * mid-write (EPIPE) is then known to be the database's.
 */
export function markDatabaseFailure(err: unknown): void {
  if (typeof err === 'object' && err !== null && Object.isExtensible(err))
    Object.defineProperty(err, FROM_DATABASE, { value: true });
}

/** True when `err` says the document store cannot be reached (or mongoose gave up waiting). */
export function isDatabaseUnavailable(err: unknown): boolean {
  return causes(err).some(
    (e) =>
      MONGO_UNREACHABLE.has(String(e.name)) ||
      ((e as Record<symbol, unknown>)[FROM_DATABASE] === true && isNetworkOrStoreUnavailable(e)) ||
      // mongoose with bufferCommands: "Operation `x.insertOne()` buffering timed out after …"
      (e.name === 'MongooseError' && /buffering timed out/.test(String(e.message))),
  );
}

/** True when `err` is a socket failure or an S3 "cannot serve now" answer. */
export function isNetworkOrStoreUnavailable(err: unknown): boolean {
  return causes(err).some(
    (e) => NETWORK_CODES.has(String(e.code)) || S3_UNAVAILABLE_CODES.has(String(e.code)),
  );
}

function unavailable(
  code: 'DATABASE.UNAVAILABLE' | 'STORAGE.UNAVAILABLE' | 'SERVICE.UNAVAILABLE',
  cause: unknown,
) {
  return new AppError(code, ERRORS[code].status, ERRORS[code].message, {
    cause,
    headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  });
}

/** 503 DATABASE.UNAVAILABLE with Retry-After. */
export function databaseUnavailable(cause?: unknown): AppError {
  return unavailable(ErrorCode.DATABASE_UNAVAILABLE, cause);
}

/** 503 STORAGE.UNAVAILABLE with Retry-After. */
export function storageUnavailable(cause?: unknown): AppError {
  return unavailable(ErrorCode.STORAGE_UNAVAILABLE, cause);
}

/** 503 SERVICE.UNAVAILABLE with Retry-After: a socket to some server broke. */
export function serviceUnavailable(cause?: unknown): AppError {
  return unavailable(ErrorCode.SERVICE_UNAVAILABLE, cause);
}
