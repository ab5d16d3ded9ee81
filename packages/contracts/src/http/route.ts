import { z } from 'zod';
import { EntityId, UserId, WorkspaceId } from '../ids';

/**
 * One HTTP call of SPEC §7. `path` uses `:name` for path parameters (`params` validates
 * them). Multipart calls name their file field in `upload`; their `body` validates the text
 * fields. `response: null` means 204 No Content. Errors answer with ErrorBody.
 */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: `/api/${string}`;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  upload?: { field: string; maxFiles: number };
  response: z.ZodType | null;
}

/** Fills a route's `:name` parameters: apiPath('/api/prompts/:id', { id }) → '/api/prompts/p1'. */
export function apiPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter '${name}' for ${path}`);
    return encodeURIComponent(String(value));
  });
}

export const IdParams = z.object({ id: EntityId });
export type IdParams = z.infer<typeof IdParams>;

/** A route naming a user: `/api/users/:id…`. */
export const UserIdParams = z.object({ id: UserId });
export type UserIdParams = z.infer<typeof UserIdParams>;

export const WorkspaceParams = z.object({ id: WorkspaceId });
export type WorkspaceParams = z.infer<typeof WorkspaceParams>;

export const WorkspaceQuery = z.object({ workspaceId: WorkspaceId });
export type WorkspaceQuery = z.infer<typeof WorkspaceQuery>;
