import type { RequestHandler } from 'express';
import { newRequestId, runWithContext } from '../context';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Letters, digits and `._:-`, 1–128 characters: a UUID, a ULID, a trace id. */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function isWellFormedRequestId(value: unknown): value is string {
  return typeof value === 'string' && WELL_FORMED.test(value);
}

/**
 * Takes `x-request-id` when well-formed, otherwise makes a new one; echoes it on the
 * response, writes it back on the request headers (so a proxy forwards the same id)
 * and runs the rest of the request inside the request context, where the logger and
 * the messaging client find it.
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = isWellFormedRequestId(incoming) ? incoming : newRequestId();
    req.headers[REQUEST_ID_HEADER] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    runWithContext({ requestId: id }, next);
  };
}
