import type { Request } from 'express';
import { WORKSPACE_HEADER, WorkspaceId } from '@aict/contracts';
import { z } from 'zod';

/**
 * The path parameters parsed by `schema` (a bad one: 400 VALIDATION.FAILED through the error
 * middleware). Used in place of `validate({ params })`, whose typed params express's own
 * path-string typing of `router.get('/x/:id', …)` does not accept.
 */
export function paramsOf<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return schema.parse(req.params) as z.output<S>;
}

export function queryOf<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return schema.parse(req.query) as z.output<S>;
}

export function bodyOf<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return schema.parse(req.body) as z.output<S>;
}

const WorkspaceHeader = z.object({ [WORKSPACE_HEADER]: WorkspaceId.optional() });

/** The workspace X-Workspace-ID names, if any (400 when it is not a workspace id). */
export function headerWorkspaceOf(req: Request): number | undefined {
  return WorkspaceHeader.parse({ [WORKSPACE_HEADER]: req.headers[WORKSPACE_HEADER] })[
    WORKSPACE_HEADER
  ];
}
