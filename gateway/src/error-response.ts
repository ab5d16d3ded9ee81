import type { ServerResponse } from 'node:http';
import { ERRORS, type ErrorCode } from '@aict/contracts';

/**
 * Answers one of the gateway's own errors as the product's error JSON (`{ code, message }`,
 * the status of the code). `close`: the connection is closed after it (a body that is not
 * read). Every gateway error goes through here, so its headers are the same everywhere.
 */
export function sendError(
  res: ServerResponse,
  code: ErrorCode,
  { message = ERRORS[code].message, close = false }: { message?: string; close?: boolean } = {},
): void {
  const body = JSON.stringify({ code, message });
  res.writeHead(ERRORS[code].status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(body);
}
