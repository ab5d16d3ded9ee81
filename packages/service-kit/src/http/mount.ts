/**
 * Mounting a route from its one definition (packages/contracts/src/http): the service names
 * the route and writes the use case; the definition gives the method and path, who may call
 * it, the schemas its input is validated with, the workspace it acts in and how it answers.
 *
 *     const mount = routeMounter(router, { service: 'prompt', contextKey });
 *     mount(PROMPT_ROUTES.get, async ({ ctx, params, workspaceId }) =>
 *       presentPrompt(ctx, await getPrompt(d, ctx, params.id, workspaceId)));
 *
 * Each route reads: validate (params, query, body from the definition) → authorise (the
 * context, the access level, the workspace in view) → command (the handler's use case) →
 * present (the handler's answer, sent with the definition's status).
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import {
  isWorkspaceFree,
  WORKSPACE_HEADER,
  WorkspaceId,
  type RouteDef,
  type ServiceName,
  type TrustedContext,
} from '@aict/contracts';
import { AppError } from '../errors';
import {
  assertAdmin,
  assertSuperAdmin,
  publicKeyOf,
  requireContext,
  workspaceInView,
  type KeyInput,
} from './trusted-context';

type Out<S, Otherwise> = S extends z.ZodType ? z.output<S> : Otherwise;

export type RouteParams<D extends RouteDef> = Out<D['params'], Record<string, never>>;
export type RouteQuery<D extends RouteDef> = Out<D['query'], Record<string, never>>;
/** An upload route's body is its multipart text fields: read with the file (`fieldsOf`). */
export type RouteBody<D extends RouteDef> = D['upload'] extends object
  ? undefined
  : Out<D['body'], undefined>;
/** What a handler returns: the answer before presentation (the schema's input), or nothing. */
export type RouteAnswer<D extends RouteDef> = D['response'] extends z.ZodType
  ? z.input<D['response']>
  : void;

/** The type of RESPONDED (a class, so that handlers' inferred return types keep it). */
export class Responded {
  private readonly responded = true;
}

/** Returned by a handler that wrote its own answer (a file, a stream, a redirect). */
export const RESPONDED = new Responded();

export interface RouteCall<D extends RouteDef> {
  req: Request;
  res: Response;
  ctx: TrustedContext;
  params: RouteParams<D>;
  query: RouteQuery<D>;
  body: RouteBody<D>;
  /**
   * The workspace the request acts in, authorised once: the first one it names (path, body,
   * query, X-Workspace-ID) else the gateway's `ctx.ws`; every one named is a workspace of the
   * caller's (else 404). null: none (only where the route's access allows it, or on an upload
   * route, whose fields may name it: the handler resolves that one).
   */
  workspaceId: number | null;
}

export type RouteHandler<D extends RouteDef> = (
  call: RouteCall<D>,
) => Promise<RouteAnswer<D> | Responded> | RouteAnswer<D> | Responded;

export interface MountOptions {
  /** The JSON body limit of a route that takes a body (default 1 MB). */
  bodyLimit?: string | number;
  /** The 400's words when a route that needs a workspace names none (default: the mounter's). */
  workspaceRequired?: string;
}

export interface RouteMounterOptions {
  /** The service whose routes these are: mounting another service's route is a bug. */
  service: ServiceName;
  /** The gateway's public key, which verifies the trusted context. */
  contextKey: KeyInput;
  /** The 400's words when a route that needs a workspace names none ('Select a workspace first.'). */
  workspaceRequired?: string;
}

export type MountRoute = <D extends RouteDef>(
  def: D,
  handler: RouteHandler<D>,
  options?: MountOptions,
) => void;

const Named = z.object({ workspaceId: WorkspaceId.nullish() }).partial();

/** A workspace id a parsed part names (`workspaceId`), if any. */
function namedIn(part: unknown): number | undefined {
  if (!part || typeof part !== 'object') return undefined;
  const value = (part as { workspaceId?: unknown }).workspaceId;
  return typeof value === 'number' ? value : undefined;
}

/** X-Workspace-ID, if sent (400 when it is not a workspace id). */
function headerWorkspace(req: Request): number | undefined {
  const raw = req.headers[WORKSPACE_HEADER];
  if (raw === undefined || raw === '') return undefined;
  const parsed = Named.safeParse({ workspaceId: raw });
  if (!parsed.success)
    throw new z.ZodError(
      parsed.error.issues.map((issue) => ({ ...issue, path: [WORKSPACE_HEADER] })),
    );
  return parsed.data.workspaceId ?? undefined;
}

/** Whether the service resolves a workspace in view for the route. */
const resolvesWorkspace = (def: RouteDef) => !isWorkspaceFree(def) && !def.workspaceByUseCase;

/** The workspaces the request names, first the path's (`:workspaceId`, or `:id` where the route says so). */
function namedWorkspaces(def: RouteDef, req: Request, parts: unknown[]): number[] {
  if (!resolvesWorkspace(def)) return [];
  const [params, body, query] = parts as [Record<string, unknown>, unknown, unknown];
  const fromPath = def.workspaceParam ? params[def.workspaceParam] : params.workspaceId;
  return [
    typeof fromPath === 'number' ? fromPath : undefined,
    namedIn(body),
    namedIn(query),
    headerWorkspace(req),
  ].filter((id): id is number => id !== undefined);
}

/** Validates every part at once (all issues reported together): 400 VALIDATION.FAILED. */
function parseParts(def: RouteDef, req: Request): [unknown, unknown, unknown] {
  const issues: z.core.$ZodIssue[] = [];
  const parse = (schema: z.ZodType | undefined, value: unknown, fallback: unknown) => {
    if (!schema) return fallback;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    issues.push(...result.error.issues);
    return fallback;
  };
  const params = parse(def.params, req.params, {});
  const body = def.upload ? undefined : parse(def.body, req.body ?? {}, undefined);
  const query = parse(def.query, req.query, {});
  if (issues.length > 0) throw new z.ZodError(issues);
  return [params, body, query];
}

const SELECT_A_WORKSPACE = 'Select a workspace first.';

/** A workspace the route needs and the request does not name: 400, before any work. */
export const workspaceRequired = (message = SELECT_A_WORKSPACE) =>
  AppError.badRequest('VALIDATION.FAILED', message, [{ path: 'workspaceId', message }]);

/** The access level of the route, for the workspace in view. */
function authorise(
  def: RouteDef,
  ctx: TrustedContext,
  named: number[],
  required: string,
): number | null {
  if (def.access === 'public') return null;
  // A workspace named that the caller is not in is 404 first, whatever the route's level.
  const workspaceId = resolvesWorkspace(def) ? workspaceInView(ctx, named) : null;
  if (def.access === 'super-admin') assertSuperAdmin(ctx);
  // An upload may name its workspace in its fields: the handler resolves it after reading them.
  if (def.access === 'member' && workspaceId === null && !def.upload)
    throw workspaceRequired(required);
  if (def.access === 'workspace-admin') {
    if (workspaceId !== null) assertAdmin(ctx, workspaceId);
    // Without a workspace in view the use case acts over the workspaces the caller administers.
    else if (!ctx.sa && !Object.values(ctx.roles).includes('admin')) throw AppError.forbidden();
  }
  return workspaceId;
}

/**
 * The multipart text fields of an upload route, validated by the route's `body` schema
 * (400 VALIDATION.FAILED otherwise).
 */
export function fieldsOf<D extends RouteDef>(
  def: D,
  fields: Record<string, string>,
): Out<D['body'], Record<string, string>> {
  return (def.body ? def.body.parse(fields) : fields) as Out<D['body'], Record<string, string>>;
}

/** The answer's status: the definition's (201), 204 for a route without a body, else 200. */
function statusOf(def: RouteDef): number {
  if (def.status) return def.status;
  return def.response === null ? 204 : 200;
}

/**
 * A `mount(def, handler)` for one service's router: the route's context check (signed in,
 * or anyone on a public route), its JSON body parser (where it takes a JSON body), the
 * validation of params, query and body, the access level with the workspace in view, then
 * the handler; its answer is sent as JSON with the definition's status (or 204).
 */
export function routeMounter(router: Router, options: RouteMounterOptions): MountRoute {
  const key = publicKeyOf(options.contextKey);
  const signedIn = requireContext(key);
  const anyone = requireContext(key, { signedIn: false });
  return (def, handler, mountOptions = {}) => {
    if (def.service !== options.service)
      throw new Error(
        `${def.method} ${def.path} belongs to the ${def.service} service, not ${options.service}`,
      );
    const chain: RequestHandler[] = [def.access === 'public' ? anyone : signedIn];
    if (def.body && !def.upload)
      chain.push(express.json({ limit: mountOptions.bodyLimit ?? '1mb' }));
    chain.push(async (req, res) => {
      const ctx = req.ctx!;
      const [params, body, query] = parseParts(def, req);
      const required =
        mountOptions.workspaceRequired ?? options.workspaceRequired ?? SELECT_A_WORKSPACE;
      const named = namedWorkspaces(def, req, [params, body, query]);
      const workspaceId = authorise(def, ctx, named, required);
      const call = { req, res, ctx, params, query, body, workspaceId } as RouteCall<typeof def>;
      const answer = await handler(call);
      if (answer === RESPONDED || res.headersSent) return;
      const status = statusOf(def);
      if (status === 204) return void res.status(204).end();
      res.status(status).json(answer);
    });
    const method = def.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](def.path, ...chain);
  };
}
