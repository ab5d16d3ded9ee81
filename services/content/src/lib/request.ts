import type { Request } from 'express';
import { WORKSPACE_HEADER, WorkspaceId } from '@aict/contracts';
import { z } from 'zod';

/** The path parameters parsed by `schema` (a bad one: 400 VALIDATION.FAILED). */
export function paramsOf<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return schema.parse(req.params) as z.output<S>;
}

export function queryOf<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return schema.parse(req.query) as z.output<S>;
}

const WorkspaceHeader = z.object({ [WORKSPACE_HEADER]: WorkspaceId.optional() });

/** The workspace X-Workspace-ID names, if any (400 when it is not a workspace id). */
export function headerWorkspaceOf(req: Request): number | undefined {
  return WorkspaceHeader.parse({ [WORKSPACE_HEADER]: req.headers[WORKSPACE_HEADER] })[
    WORKSPACE_HEADER
  ];
}

/** `?workspaceId=` of any route (the contracts' per-route query schemas name it too). */
export const OptionalWorkspaceQuery = z.object({ workspaceId: WorkspaceId.optional() });

/** The JSON body parsed by `schema` (a bad one: 400 VALIDATION.FAILED). */
export function bodyOf<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  return schema.parse(req.body ?? {}) as z.output<S>;
}
