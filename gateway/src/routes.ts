import {
  isWorkspaceFree,
  pathPattern,
  ROUTES,
  type ApiTokenScope,
  type RouteDef,
  type ServiceName,
} from '@aict/contracts';

export type { ServiceName };

/**
 * Which service owns which `/api` path, read from the route table of @aict/contracts
 * (ROUTES). A first segment (`prompts` in `/api/prompts/…`) belongs to the service of its
 * shortest route (`/api/user` → auth); a route of another service under it
 * (`/api/user/workspaces`, `/api/users/:id/workspaces` → workspace) is matched by its own
 * path. Any other path under an owned segment goes to the segment's owner, which answers
 * 404 itself, so that a path the gateway does not know still meets the service's checks.
 */
interface Segment {
  service: ServiceName;
  /** Routes under the segment that another service owns, with the matcher of their path. */
  others: ReadonlyArray<{ route: RouteDef; pattern: RegExp }>;
}

const FIRST_SEGMENT = /^\/api\/([^/?#]+)/;

function firstSegment(path: string): string | undefined {
  return FIRST_SEGMENT.exec(path)?.[1];
}

function segmentsOf(routes: readonly RouteDef[]): ReadonlyMap<string, Segment> {
  const owners = new Map<string, ServiceName>();
  for (const route of [...routes].sort((a, b) => a.path.length - b.path.length)) {
    const segment = firstSegment(route.path)!;
    if (!owners.has(segment)) owners.set(segment, route.service);
  }
  const segments = new Map<string, Segment>();
  for (const [segment, service] of owners) {
    const others = routes
      .filter((route) => firstSegment(route.path) === segment && route.service !== service)
      .map((route) => ({ route, pattern: pathPattern(route.path) }));
    segments.set(segment, { service, others });
  }
  return segments;
}

const SEGMENTS = segmentsOf(ROUTES);

function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

export function serviceFor(path: string): ServiceName | undefined {
  return routeFor(path)?.service;
}

/**
 * The owner of an `/api` path and the route label of the request (`/api/prompts*`,
 * `/api/users/:id/workspaces`): what the gateway's metrics and spans are labelled with,
 * never the raw URL.
 */
export function routeFor(url: string): { service: ServiceName; route: string } | undefined {
  const segmentName = firstSegment(url);
  const segment = segmentName === undefined ? undefined : SEGMENTS.get(segmentName);
  if (!segment) return undefined;
  if (segment.others.length > 0) {
    const path = pathOf(url);
    const other = segment.others.find(({ pattern }) => pattern.test(path));
    if (other) return { service: other.route.service, route: other.route.path };
  }
  return { service: segment.service, route: `/api/${segmentName}*` };
}

/** `METHOD path` of every route anyone may call, signed in or not (HEAD with each GET). */
const PUBLIC = ROUTES.filter((route) => route.access === 'public');
const PUBLIC_KEYS = new Set(
  PUBLIC.flatMap((route) => {
    const key = `${route.method} ${route.path}`;
    return route.method === 'GET' ? [key, `HEAD ${route.path}`] : [key];
  }),
);
const PUBLIC_PATTERNS = PUBLIC.filter((route) => route.path.includes(':')).map((route) => ({
  methods: route.method === 'GET' ? ['GET', 'HEAD'] : [route.method],
  pattern: pathPattern(route.path),
}));

/** Whether a signed-out caller may use the route (`path` without its query string). */
export function isPublicRoute(method: string, path: string): boolean {
  if (PUBLIC_KEYS.has(`${method} ${path}`)) return true;
  return PUBLIC_PATTERNS.some((p) => p.methods.includes(method) && p.pattern.test(path));
}

/**
 * Routes that answer whatever workspace the request names (isWorkspaceFree: public ones and
 * those flagged `workspaceFree` in the table), HEAD with each GET.
 */
const WORKSPACE_FREE = ROUTES.filter(isWorkspaceFree).map((route) => ({
  methods: route.method === 'GET' ? ['GET', 'HEAD'] : [route.method],
  pattern: pathPattern(route.path),
}));

/**
 * Whether the route does not act in a workspace (`path` without its query string): the
 * gateway then ignores a named workspace the caller may not use, or a malformed one.
 */
export function isWorkspaceFreeRoute(method: string, path: string): boolean {
  return WORKSPACE_FREE.some((r) => r.methods.includes(method) && r.pattern.test(path));
}

/** Matchers of the paths of routes that take files (multipart bodies). */
export const UPLOAD_PATTERNS: ReadonlyArray<RegExp> = ROUTES.filter((route) => route.upload).map(
  (route) => pathPattern(route.path),
);

/** Whether the path (query string allowed) is one of a route that takes files. */
export function isUploadPath(url: string): boolean {
  const path = pathOf(url);
  return UPLOAD_PATTERNS.some((pattern) => pattern.test(path));
}

/** Routes a personal API token may call, with the scope each needs (HEAD with each GET). */
const TOKEN_ROUTES = ROUTES.filter((route) => route.apiToken).map((route) => ({
  methods: route.method === 'GET' ? ['GET', 'HEAD'] : [route.method],
  pattern: pathPattern(route.path),
  scope: route.apiToken!,
}));

/**
 * The scope a personal API token needs for the route (`path` without its query string), or
 * undefined: tokens are refused there (every administrative route).
 */
export function apiTokenScopeOf(method: string, path: string): ApiTokenScope | undefined {
  return TOKEN_ROUTES.find((r) => r.methods.includes(method) && r.pattern.test(path))?.scope;
}
