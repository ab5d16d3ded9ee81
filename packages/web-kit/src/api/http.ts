import type { QueryFunction } from '@tanstack/react-query';
import { WORKSPACE_HEADER } from '@aict/contracts/constants';
import { readStoredWorkspaceId } from '../lib/storage';
import { localizeServerMessage } from '../i18n/localize-error';

// The fetch client of SPEC §7 "Common behaviour": credentials always included; a JSON
// content type only when a body is present; the stored workspace id as a header; no retries.

/**
 * A non-OK response (SPEC §8): the message is `${status}: ${body text or status text}`.
 * `body` keeps the raw text, so callers can read the server's `message` (see errorMessage).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly body: string,
  ) {
    super(`${status}: ${body || statusText}`);
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** Throws an ApiError for a non-OK response; returns nothing otherwise. */
export async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw new ApiError(res.status, res.statusText, text);
}

/** The workspace header when a current workspace id is stored, else nothing. */
export function workspaceHeaders(): Record<string, string> {
  const id = readStoredWorkspaceId();
  return id ? { [WORKSPACE_HEADER]: id } : {};
}

export interface RequestOptions {
  /** Extra headers; they win over the defaults (e.g. an explicit x-workspace-id). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Sends a request and returns the OK response (throws ApiError otherwise). A FormData body
 * goes as multipart (the browser sets its content type); any other defined body as JSON.
 */
export async function apiRequest(
  method: string,
  url: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...workspaceHeaders() };
  let payload: BodyInit | undefined;
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  Object.assign(headers, options.headers);
  const res = await fetch(url, {
    method,
    headers,
    body: payload,
    credentials: 'include',
    signal: options.signal,
  });
  await throwIfNotOk(res);
  return res;
}

/** Parses a response body as JSON; an empty body (204, …) gives null. */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** apiRequest, then the parsed JSON body. */
export async function apiJson<T>(
  method: string,
  url: string,
  body?: unknown,
  options?: RequestOptions,
): Promise<T> {
  return readJson<T>(await apiRequest(method, url, body, options));
}

/** What a 401 means for a query: no data (`returnNull`, e.g. "not signed in") or an error. */
export type On401 = 'returnNull' | 'throw';

/**
 * The default query function: GET the first element of the query key (a URL) and parse its
 * JSON. With `on401: 'returnNull'` a 401 yields null instead of an error.
 */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const url = queryKey[0];
    if (typeof url !== 'string') throw new Error('The first element of a query key must be a URL');
    const res = await fetch(url, { credentials: 'include', headers: workspaceHeaders(), signal });
    if (on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfNotOk(res);
    return readJson<T>(res);
  };
}

/**
 * The text to show for an error (toast description): the server's `message` field when the
 * body carries one (SPEC §8), else the error's own message.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError && error.body) {
    try {
      const parsed: unknown = JSON.parse(error.body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const { message, code } = parsed as { message: unknown; code?: unknown };
        if (typeof message === 'string' && message) return localizeServerMessage(code, message);
      }
    } catch {
      // not JSON: fall through
    }
  }
  return error instanceof Error ? error.message : String(error);
}
