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
import { apiTokenScopeOf, isPublicRoute, isWorkspaceFreeRoute } from '../routes';
import type { IdentityState } from '../identity/identity-state';
import { bearerOf, markApiTokenRequest, type ApiTokenVerifier } from './api-tokens';
import type { ContextSigner } from './context-signer';
import { readCookie, type SessionVerifier } from './session';
import { namedWorkspaces } from './workspace';

export interface AccessDeps {
  state: IdentityState;
  sessions: SessionVerifier;
  contexts: ContextSigner;
  /** The client's address (socket, or X-Forwarded-For through trusted proxies). */
  clientAddress: (req: IncomingMessage) => string;
  /** Personal API tokens (`Authorization: Bearer`); without it, bearers are not accepted. */
  apiTokens?: ApiTokenVerifier;
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
export function authorize(
  req: IncomingMessage,
  res: ServerResponse,
  deps: AccessDeps,
): boolean | Promise<boolean> {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    // Never forwarded: the secret stays in the gateway (and out of every service's logs).
    delete req.headers.authorization;
    const bearer = bearerOf(authorization);
    if (bearer !== undefined) return authorizeApiToken(req, res, deps, bearer);
  }
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const session = deps.sessions.authenticate(readCookie(req.headers.cookie, SESSION_COOKIE));
  // Signed-out callers reach only the routes the table calls public (with `uid: null`).
  if (!session && !isPublicRoute(req.method ?? 'GET', path)) {
    return send(res, ErrorCode.AUTH_UNAUTHENTICATED);
  }

  // Routes that do not act in a workspace (the table's `workspaceFree`, and public ones)
  // answer whatever workspace the front-end's stored X-Workspace-ID names, so that a caller
  // who left it (or changed account) can sign in and choose again; it is ignored (`ws: null`).
  const workspaceFree = isWorkspaceFreeRoute(req.method ?? 'GET', path);
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

const TOKEN_REFUSED = 'The API token is invalid, expired or revoked.';
const TOKEN_NOT_HERE = 'API tokens cannot be used for this request.';
const TOKEN_SCOPE = 'This API token does not allow this action.';
const TOKEN_WORKSPACE = 'This API token belongs to another workspace.';

/**
 * A request with `Authorization: Bearer <token>` (a personal API token, issue 17): only on
 * routes whose table entry names a token scope (generation, reading contents), never on an
 * administrative one (403). The token must be valid (401 otherwise), allow the route's scope
 * (403), and the workspace in view is the token's: any other named is refused (403). The
 * user's current membership there is checked on every request (403 once they left). The
 * context carries the token's id (`tok`), no super-administrator flag, and only that
 * workspace's role.
 */
async function authorizeApiToken(
  req: IncomingMessage,
  res: ServerResponse,
  deps: AccessDeps,
  secret: string,
): Promise<boolean> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const scope = apiTokenScopeOf(req.method ?? 'GET', path);
  if (!deps.apiTokens || scope === undefined) {
    return send(res, ErrorCode.AUTH_FORBIDDEN, TOKEN_NOT_HERE);
  }
  const named = namedWorkspaces(req.headers['x-workspace-id'], q === -1 ? '' : url.slice(q + 1));
  if (!named.ok) return send(res, ErrorCode.VALIDATION_FAILED, named.message);
  let token;
  try {
    token = await deps.apiTokens.authenticate(secret);
  } catch {
    return send(res, ErrorCode.SERVICE_UNAVAILABLE);
  }
  if (!token) return send(res, ErrorCode.AUTH_UNAUTHENTICATED, TOKEN_REFUSED);
  markApiTokenRequest(req, token.tokenId);
  if (!token.scopes.includes(scope)) return send(res, ErrorCode.AUTH_FORBIDDEN, TOKEN_SCOPE);
  if (named.all.some((id) => id !== token.ws)) {
    return send(res, ErrorCode.WORKSPACE_FORBIDDEN, TOKEN_WORKSPACE);
  }
  const { roles, version } = deps.state.rolesOf(token.uid);
  const role = roles[String(token.ws)];
  if (role === undefined) return send(res, ErrorCode.WORKSPACE_FORBIDDEN);
  // Services that read the workspace from the header see the token's.
  req.headers['x-workspace-id'] = String(token.ws);
  const ip = deps.clientAddress(req);
  const rid = String(req.headers['x-request-id']);
  const key = `t\u0000${token.tokenId}\u0000${role}\u0000${version}\u0000${ip}`;
  req.headers[CONTEXT_HEADER] = deps.contexts.sign(key, (): TrustedContext => ({
    uid: token.uid,
    sa: false,
    roles: { [String(token.ws)]: role },
    ws: token.ws,
    role,
    rid,
    ip,
    tok: token.tokenId,
  }));
  return true;
}
