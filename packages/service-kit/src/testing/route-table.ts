/**
 * Checks a service against the route table of @aict/contracts (ROUTES): the `/api` routes
 * its express app mounts, and its answers against each route's response schema.
 */
import type { RequestListener } from 'node:http';
import {
  FILE_RESPONSE,
  REDIRECT_RESPONSE,
  pathPattern,
  ROUTES,
  type ServiceName,
} from '@aict/contracts';

interface Layer {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  /** Express 5 (router 2): set on a layer mounted with a path (`app.use('/x', …)`). */
  path?: unknown;
  matchers?: unknown[];
}

function layersOf(app: RequestListener): Layer[] {
  const router = (app as unknown as { router?: { stack?: Layer[] } }).router;
  if (!router?.stack) throw new Error('not an express app: it has no router stack');
  return router.stack;
}

/**
 * `METHOD path` of every `/api` route the express app mounts (its own and its routers',
 * mounted at the root), sorted. Express's automatic HEAD for a GET is not listed.
 */
export function mountedApiRoutes(app: RequestListener): string[] {
  const found = new Set<string>();
  const visit = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          if (typeof path !== 'string') {
            throw new Error(`a route is mounted on a pattern, not a path: ${String(path)}`);
          }
          if (!path.startsWith('/api/')) continue;
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') found.add(`${method.toUpperCase()} ${path}`);
          }
        }
      } else if (layer.handle?.stack) {
        visit(layer.handle.stack);
      }
    }
  };
  visit(layersOf(app));
  return [...found].sort();
}

/** `METHOD path` of every route the table gives the service, sorted. */
export function tableRoutesOf(service: ServiceName): string[] {
  return ROUTES.filter((route) => route.service === service)
    .map((route) => `${route.method} ${route.path}`)
    .sort();
}

/**
 * Checks a successful call's answer against its route's definition: it must be a success
 * with the route's status (204 for `response: null`), and a JSON route's body must parse
 * with its `response` schema. Throws (naming the route and every problem) when it does not;
 * returns the parsed body.
 */
export function checkAnswer(
  method: string,
  url: string,
  answer: { status: number; body: unknown },
): unknown {
  const path = url.split('?')[0] ?? url;
  const route = ROUTES.find((r) => r.method === method && pathPattern(r.path).test(path));
  if (!route) throw new Error(`${method} ${path} is in no route table`);
  const name = `${route.method} ${route.path}`;
  if (route.response === REDIRECT_RESPONSE) {
    if (answer.status !== 302) throw new Error(`${name} answered ${answer.status}, not 302`);
    return undefined;
  }
  if (answer.status < 200 || answer.status > 299) {
    throw new Error(`${name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  if (route.response === null) {
    if (answer.status !== 204) throw new Error(`${name} answered ${answer.status}, not 204`);
    return undefined;
  }
  if (route.response === FILE_RESPONSE) return answer.body;
  const expected = route.status ?? 200;
  if (answer.status !== expected) {
    throw new Error(`${name} answered ${answer.status}, not ${expected}`);
  }
  const parsed = route.response.safeParse(answer.body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`${name} answered what its response schema refuses: ${issues.join('; ')}`);
  }
  return parsed.data;
}
