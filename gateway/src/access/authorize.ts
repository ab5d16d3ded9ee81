import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CONTEXT_HEADER,
  ERRORS,
  ErrorCode,
  SESSION_COOKIE,
  type Role,
  type TrustedContext,
} from '@aict/contracts';
import { sendError } from '../error-response';
import { isPublicRoute, PUBLIC_ROUTE_KEYS } from '../routes';
import type { IdentityState } from '../identity/identity-state';
import type { ContextSigner } from './context-signer';
import { readCookie, type SessionVerifier } from './session';
import { namedWorkspaces } from './workspace';

/**
 * Routes that do not act in a workspace. The front-end sends its stored X-Workspace-ID on
 * every call, which may name a workspace the caller has just left (or another user's, after
 * a change of account); these routes must still answer so that the caller can sign in and
 * choose again. A workspace they name that the caller may not use is ignored (`ws: null`).
 */
const WORKSPACE_FREE_ROUTES = new Set([
  ...PUBLIC_ROUTE_KEYS,
  'GET /api/user/workspaces',
  'HEAD /api/user/workspaces',
  // The caller's own settings (language): saved whatever workspace the front-end has stored.
  'PATCH /api/user',
]);

export interface AccessDeps {
  state: IdentityState;
  sessions: SessionVerifier;
  contexts: ContextSigner;
  /** The client's address (socket, or X-Forwarded-For through trusted proxies). */
  clientAddress: (req: IncomingMessage) => string;
}

function send(res: ServerResponse, code: ErrorCode, message = ERRORS[code].message): false {
  sendError(res, code, { message });
  return false;
}

/**
 * Decides whether an `/api` request may reach its service and, if so, adds the signed
 * context for it (`x-aict-context`). Answers itself (and returns false) when it may not:
 * 401 AUTH.UNAUTHENTICATED for a signed-out caller of a non-public route, 400 for a
 * malformed workspace id, 403 WORKSPACE.FORBIDDEN for a workspace the caller is not a
 * member of (super administrators excepted). Reads no body and no database: the token is
 * verified here and the roles come from the in-memory state.
 *
 * Client headers starting with `x-aict-` must have been removed before.
 */
export function authorize(req: IncomingMessage, res: ServerResponse, deps: AccessDeps): boolean {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const route = `${req.method} ${path}`;
  const session = deps.sessions.authenticate(readCookie(req.headers.cookie, SESSION_COOKIE));
  // Signed-out callers reach only the routes the table calls public (with `uid: null`).
  if (!session && !isPublicRoute(req.method ?? 'GET', path)) {
    return send(res, ErrorCode.AUTH_UNAUTHENTICATED);
  }

  const workspaceFree = WORKSPACE_FREE_ROUTES.has(route);
  const named = namedWorkspaces(req.headers['x-workspace-id'], q === -1 ? '' : url.slice(q + 1));
  if (!named.ok && !workspaceFree) return send(res, ErrorCode.VALIDATION_FAILED, named.message);

  const ip = deps.clientAddress(req);
  const rid = String(req.headers['x-request-id']);
  let token: string;
  if (!session) {
    const key = `-\u0000${ip}`;
    token = deps.contexts.sign(key, () => ({
      uid: null,
      sa: false,
      roles: {},
      ws: null,
      role: null,
      rid,
      ip,
    }));
  } else {
    const sa = session.isSuperAdmin;
    const { roles, version } = deps.state.rolesOf(session.uid);
    let ws: number | null = null;
    if (named.ok) {
      const refused = sa ? undefined : named.all.find((id) => roles[String(id)] === undefined);
      if (refused === undefined) ws = named.ws;
      else if (!workspaceFree) return send(res, ErrorCode.WORKSPACE_FORBIDDEN);
    }
    const role: Role | null = ws === null ? null : sa ? 'admin' : (roles[String(ws)] ?? null);
    const key = `${session.uid}\u0000${ws ?? ''}\u0000${sa ? 1 : 0}\u0000${version}\u0000${ip}`;
    token = deps.contexts.sign(key, (): TrustedContext => ({
      uid: session.uid,
      sa,
      roles,
      ws,
      role,
      rid,
      ip,
    }));
  }
  req.headers[CONTEXT_HEADER] = token;
  return true;
}
