import { z } from 'zod';

/** A body schema that reads a missing body as `{}`, so its own messages ('Missing Fields: …') apply. */
export function orEmpty<S extends z.ZodType>(schema: S) {
  return z.preprocess((body) => body ?? {}, schema);
}
