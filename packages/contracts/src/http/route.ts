import { z } from 'zod';
import { EntityId, UserId, WorkspaceId } from '../ids';
import type { ApiTokenScope } from './tokens';

/** The service that owns a route (the gateway forwards its requests there). */
export type ServiceName = 'auth' | 'workspace' | 'prompt' | 'generation' | 'content';

/**
 * Who may call a route, at least (the use case checks the rest, per resource):
 * - `public`: anyone, signed in or not (the gateway sends a context with `uid: null`);
 * - `signed-in`: any signed-in user; a workspace the request names must be one of theirs,
 *   but none is required;
 * - `member`: a member of the workspace in view (the request must name one);
 * - `workspace-admin`: an admin of the workspace in view, or a super administrator;
 * - `super-admin`: super administrators only.
 */
export type Access = 'public' | 'signed-in' | 'member' | 'workspace-admin' | 'super-admin';

export const ACCESS_LEVELS = [
  'public',
  'signed-in',
  'member',
  'workspace-admin',
  'super-admin',
] as const satisfies readonly Access[];

/** A route answering a file (an image, an attachment): its bytes, with their content type. */
export const FILE_RESPONSE = 'file';

/** A route answering a redirect (302 with a Location), e.g. the single sign-on steps. */
export const REDIRECT_RESPONSE = 'redirect';

/**
 * One HTTP call of SPEC §7. `path` uses `:name` for path parameters (`params` validates
 * them). Multipart calls name their file field in `upload`; their `body` validates the text
 * fields. `response: null` means 204 No Content; FILE_RESPONSE a file's bytes; REDIRECT_RESPONSE
 * a 302. `status` is the
 * success status when it is not 200 (or 204). Errors answer with ErrorBody.
 */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: `/api/${string}`;
  service: ServiceName;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  upload?: { field: string; maxFiles: number };
  status?: 201;
  response: z.ZodType | null | typeof FILE_RESPONSE | typeof REDIRECT_RESPONSE;
  /**
   * A personal API token with this scope may call the route (`Authorization: Bearer`);
   * without it, the gateway refuses tokens here (administrative routes never name one).
   */
  apiToken?: ApiTokenScope;
  /**
   * The route does not act in a workspace (the caller's own account, the list of their
   * workspaces). The front-end sends its stored X-Workspace-ID on every call, which may name a
   * workspace the caller has just left (or another user's, after a change of account); such a
   * route must still answer so that the caller can choose again: the gateway ignores a named
   * workspace the caller may not use, or a malformed one (`ws: null`), instead of refusing.
   * Only for `signed-in` routes: public routes always behave so (see isWorkspaceFree).
   */
  workspaceFree?: true;
  /**
   * The path parameter that names the workspace the route acts in, where it is not
   * `:workspaceId` (`/api/workspaces/:id/…`): the service authorises it as the workspace in view.
   */
  workspaceParam?: 'id';
  /**
   * The `workspaceId` the body or query names is a resource of the use case (the workspace a
   * new user joins, a token is for, whose audit entries are read), not the workspace in view:
   * the use case authorises it (403 for one the caller does not administer), so the service
   * resolves no workspace in view for the route.
   */
  workspaceByUseCase?: true;
}

/**
 * Whether the gateway lets the route through whatever workspace the request names (public
 * routes, and those flagged `workspaceFree`); every other route is refused (400/403) when it
 * names a malformed workspace id or one the caller may not use.
 */
export function isWorkspaceFree(route: RouteDef): boolean {
  return route.access === 'public' || route.workspaceFree === true;
}

/**
 * A matcher of a route's path: `:name` matches one segment (anything but `/`, never empty).
 * Paths given to it carry no query string.
 */
export function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
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

/** A workspace a request may name in its query (else X-Workspace-ID names it, or none). */
export const OptionalWorkspaceQuery = z.object({ workspaceId: WorkspaceId.optional() });
export type OptionalWorkspaceQuery = z.infer<typeof OptionalWorkspaceQuery>;
