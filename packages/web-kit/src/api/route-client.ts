import type { z } from 'zod';
import type { RouteDef } from '@aict/contracts';
import { apiRequest, readJson, type RequestOptions } from './http';

// A typed client over the route tables of @aict/contracts (packages/contracts/src/http/*):
// `apiCall(PROMPT_ROUTES.list, { query })` sends the call and is typed by the route's schemas
// (params, query and body in, the response out); `routeQueryKey(...)` is its query key.
//
// Only `method` and `path` are read at run time. A remote passes the table's entry itself; web-kit
// passes a `routeRef` (method and path, checked by tsc against the table): a value import of
// '@aict/contracts' would load zod on the shell's first screen (see lib/contracts-subset.ts).
// Responses are not parsed here: each service's tests check its answers against the schemas.

/** The run-time part of a route (method and path), carrying the route's types. */
export interface RouteRef<R extends RouteDef> {
  readonly method: R['method'];
  readonly path: R['path'];
  /** Types only: never set. */
  readonly __route?: R;
}

/**
 * A route of web-kit's own calls, typed by its entry in the contracts' tables: tsc fails when
 * they differ. JSON and 204 routes only (a file route is told apart by its `response`).
 */
export function routeRef<R extends RouteDef & { response: z.ZodType | null }>(
  method: R['method'],
  path: R['path'],
): RouteRef<R> {
  return { method, path };
}

type Schema<R, K extends 'params' | 'query' | 'body'> = R extends {
  [P in K]: infer S extends z.ZodType;
}
  ? S
  : never;

/** What a call sends: each schema's input (before defaults and transforms). */
export type RouteParams<R> = z.input<Schema<R, 'params'>>;
export type RouteQuery<R> = z.input<Schema<R, 'query'>>;
export type RouteBody<R> = R extends { upload: object } ? FormData : z.input<Schema<R, 'body'>>;

/** What a call answers: the response schema's type, null for 204, a Blob for a file. */
export type RouteResponse<R extends RouteDef> = R['response'] extends z.ZodType
  ? z.output<R['response']>
  : R['response'] extends null
    ? null
    : Blob;

type Field<R, K extends 'params' | 'query' | 'body', V> = [Schema<R, K>] extends [never]
  ? { [P in K]?: undefined }
  : undefined extends V
    ? { [P in K]?: V }
    : object extends V
      ? { [P in K]?: V } // nothing in it is required (e.g. an optional workspaceId)
      : { [P in K]: V };

/** The parts of a call its route declares: each required when its schema requires something. */
export type RouteInput<R> = Field<R, 'params', RouteParams<R>> &
  Field<R, 'query', RouteQuery<R>> &
  Field<R, 'body', RouteBody<R>>;

type InputArgs<R> =
  object extends RouteInput<R>
    ? [input?: RouteInput<R>, options?: RequestOptions]
    : [input: RouteInput<R>, options?: RequestOptions];

type Scalar = string | number | boolean | null | undefined;

/** `path` plus the defined params as a query string. */
export function withParams(path: string, params: Record<string, Scalar>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Fills `:name` segments of a route's path: '/api/prompts/:id' + { id: 'p1' } → '/api/prompts/p1'. */
export function fillPath(path: string, params: object = {}): string {
  const values = params as Record<string, Scalar>;
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) {
      throw new Error(`Missing path parameter '${name}' for ${path}`);
    }
    return encodeURIComponent(String(value));
  });
}

/** A route's URL: its path with `params` filled in, then the defined `query` values. */
export function routeUrl<R extends RouteDef>(
  route: R | RouteRef<R>,
  params?: RouteParams<R>,
  query?: RouteQuery<R>,
): string {
  return withParams(fillPath(route.path, params ?? {}), (query ?? {}) as Record<string, Scalar>);
}

/**
 * A GET route's query key: its URL first, as every key (SPEC §7: the default query function
 * GETs `queryKey[0]`), so the keys match `queryKeys` and `urlFilter`. Query values keep the
 * order they are given in.
 */
export function routeQueryKey<R extends RouteDef>(
  route: R | RouteRef<R>,
  params?: RouteParams<R>,
  query?: RouteQuery<R>,
): readonly [string] {
  return [routeUrl(route, params, query)] as const;
}

/** Sends a route's call (http.ts: credentials, workspace header, ApiError) and returns its answer. */
export async function apiCall<R extends RouteDef>(
  route: R | RouteRef<R>,
  ...[input, options]: InputArgs<R>
): Promise<RouteResponse<R>> {
  const url = routeUrl(route, input?.params, input?.query);
  const res = await apiRequest(route.method, url, input?.body, options);
  if ('response' in route && route.response === 'file')
    return (await res.blob()) as RouteResponse<R>;
  return readJson<RouteResponse<R>>(res);
}
