import type { Request, RequestHandler } from 'express';
import { z } from 'zod';

type ParamsDictionary = Request['params'];
type ParsedQs = Request['query'];

type Schema = z.ZodType;
type Out<S, Otherwise> = S extends Schema ? z.output<S> : Otherwise;

export interface ValidateSchemas<
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
> {
  body?: B;
  query?: Q;
  params?: P;
}

/**
 * Parses `req.params`, `req.query` and `req.body` with the given schemas and puts the
 * parsed values back (`req.body`, `req.params`, `req.query`), typed for the handlers
 * that follow on the same route:
 *
 *     router.post('/prompts/:id', jsonBody(), validate({ params: IdParams, body: UpdatePrompt }),
 *       async (req, res) => { req.params.id; req.body.name; ... });
 *
 * Every issue of every part is collected; the error middleware answers 400
 * `VALIDATION.FAILED` with the first message and the list of `{ path, message }`.
 * Use it on a route (not `router.use`): express resets `req.params` per router layer.
 */
export function validate<
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(
  schemas: ValidateSchemas<B, Q, P>,
): RequestHandler<Out<P, ParamsDictionary>, unknown, Out<B, unknown>, Out<Q, ParsedQs>> {
  return (req, _res, next) => {
    const issues: z.core.$ZodIssue[] = [];
    const parse = (
      schema: Schema | undefined,
      value: unknown,
      apply: (parsed: unknown) => void,
    ) => {
      if (!schema) return;
      const result = schema.safeParse(value);
      if (result.success) apply(result.data);
      else issues.push(...result.error.issues);
    };
    parse(schemas.params, req.params, (v) => {
      req.params = v as Out<P, ParamsDictionary>;
    });
    parse(schemas.query, req.query, (v) => {
      // express 5 defines `query` as a getter on the prototype; shadow it on this request.
      Object.defineProperty(req, 'query', {
        value: v,
        writable: true,
        configurable: true,
        enumerable: true,
      });
    });
    parse(schemas.body, req.body, (v) => {
      req.body = v as Out<B, unknown>;
    });
    if (issues.length > 0) return next(new z.ZodError(issues));
    next();
  };
}
