import type { Request } from 'express';
import type { z } from 'zod';

/**
 * The path parameters parsed by `schema` (a bad one: 400 VALIDATION.FAILED through the error
 * middleware). Used in place of `validate({ params })`, whose typed params express's own
 * path-string typing of `router.get('/x/:id', …)` does not accept.
 */
export function paramsOf<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return schema.parse(req.params) as z.output<S>;
}
