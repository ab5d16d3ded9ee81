import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import {
  ErrorCode,
  FILE_RESPONSE,
  REDIRECT_RESPONSE,
  pathPattern,
  ROUTES,
  type RouteDef,
} from '@aict/contracts';

/** Whether answers are checked by default: in tests (jest sets NODE_ENV=test). */
export const CHECK_RESPONSES_DEFAULT = process.env.NODE_ENV === 'test';

/**
 * Checks every JSON success a route of the table (ROUTES) answers against the route's
 * `response` schema, and fails loudly when it does not fit: the answer becomes a 500
 * INTERNAL naming the route and each refused field, and an error is logged. Meant for
 * tests (createHttpApp turns it on when NODE_ENV=test): a presenter that drifts from the
 * contract breaks the service's own tests, not a client in production.
 */
export function checkResponses(
  logger: Logger,
  routes: readonly RouteDef[] = ROUTES,
): RequestHandler {
  const checked = routes
    .filter(
      (route) =>
        route.response !== null &&
        route.response !== FILE_RESPONSE &&
        route.response !== REDIRECT_RESPONSE,
    )
    .map((route) => ({ route, pattern: pathPattern(route.path) }));
  return (req, res, next) => {
    const found = checked.find(
      ({ route, pattern }) => route.method === req.method && pattern.test(req.path),
    );
    const schema = found?.route.response;
    if (!found || !schema || schema === FILE_RESPONSE || schema === REDIRECT_RESPONSE)
      return next();
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode < 200 || res.statusCode > 299) return json(body);
      const parsed = schema.safeParse(body);
      if (parsed.success) return json(body);
      const name = `${found.route.method} ${found.route.path}`;
      const issues = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`,
      );
      const message = `${name} answered what its response schema refuses: ${issues.join('; ')}`;
      logger.error({ route: name, issues }, message);
      res.status(500);
      return json({ code: ErrorCode.INTERNAL, message });
    };
    next();
  };
}
