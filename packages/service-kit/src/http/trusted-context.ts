/**
 * The trusted context the gateway forwards to services (docs/adr/0001-identity-and-tenancy.md):
 * an ES256 token in `x-aict-context`, signed by the gateway alone. Services verify it on
 * every API route, so a service reached directly refuses any request the gateway did not
 * vouch for, and they authorise every workspace id they see against it.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import jwt from 'jsonwebtoken';
import {
  CONTEXT_AUDIENCE,
  CONTEXT_HEADER,
  CONTEXT_ISSUER,
  TrustedContext,
  type Role,
} from '@aict/contracts';
import { AppError } from '../errors';
import { keyIdOf, keyRing, verifyPinnedToken } from './signed-token';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by `requireContext`. */
    ctx?: TrustedContext;
  }
}

export type KeyInput = string | KeyObject;

export const publicKeyOf = (key: KeyInput): KeyObject =>
  typeof key === 'string' ? createPublicKey(key) : key;
/** The `typ` header of a context token (RFC 8725 §3.11: explicit typing). */
export const CONTEXT_TOKEN_TYPE = 'aict-context+jwt';

export const privateKeyOf = (key: KeyInput): KeyObject =>
  typeof key === 'string' ? createPrivateKey(key) : key;

/** A context lives about a minute (the gateway reuses one for 30 s); far longer is refused. */
const MAX_CONTEXT_LIFETIME_SECONDS = 300;

/** Signs a context (the gateway; and tests that reach a service directly). */
export function signContext(
  privateKey: KeyObject,
  context: TrustedContext,
  expiresInSeconds = 60,
): string {
  return jwt.sign(context, privateKey, {
    algorithm: 'ES256',
    issuer: CONTEXT_ISSUER,
    audience: CONTEXT_AUDIENCE,
    expiresIn: expiresInSeconds,
    keyid: keyIdOf(privateKey),
    header: { alg: 'ES256', typ: CONTEXT_TOKEN_TYPE },
  });
}

/** The gateway's key by its id, derived once per key object. */
const rings = new WeakMap<KeyObject, ReadonlyMap<string, KeyObject>>();
function ringOf(publicKey: KeyObject): ReadonlyMap<string, KeyObject> {
  let ring = rings.get(publicKey);
  if (!ring) rings.set(publicKey, (ring = keyRing(publicKey)));
  return ring;
}

/**
 * Verifies a context token: algorithm, `typ` and `kid` pinned, no `crit`, issuer and
 * audience checked, `exp` and `iat` required, not issued in the future, not expired.
 */
export function verifyContext(publicKey: KeyObject, token: string): TrustedContext {
  const claims = verifyPinnedToken(token, {
    keys: ringOf(publicKey),
    typ: CONTEXT_TOKEN_TYPE,
    issuer: CONTEXT_ISSUER,
    audience: CONTEXT_AUDIENCE,
    maxLifetimeSeconds: MAX_CONTEXT_LIFETIME_SECONDS,
  });
  return TrustedContext.parse(claims);
}

/**
 * Refuses (401) an API request without a valid context; sets `req.ctx`. With
 * `signedIn: true` (the default) a signed-out context is refused too.
 */
export function requireContext(
  publicKey: KeyInput,
  options: { signedIn?: boolean } = {},
): RequestHandler {
  const key = publicKeyOf(publicKey);
  const signedIn = options.signedIn ?? true;
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = req.headers[CONTEXT_HEADER];
    if (typeof token !== 'string') return next(AppError.unauthorized());
    let ctx: TrustedContext;
    try {
      ctx = verifyContext(key, token);
    } catch {
      return next(AppError.unauthorized());
    }
    if (signedIn && !ctx.uid) return next(AppError.unauthorized());
    req.ctx = ctx;
    next();
  };
}

/** The verified context of a request (after `requireContext`). */
export function contextOf(req: Request): TrustedContext {
  if (!req.ctx) throw AppError.unauthorized();
  return req.ctx;
}

/** The caller's role in a workspace: 'admin' for super administrators, null if not a member. */
export function roleIn(ctx: TrustedContext, workspaceId: number): Role | null {
  if (ctx.sa) return 'admin';
  return ctx.roles[String(workspaceId)] ?? null;
}

export function isAdminIn(ctx: TrustedContext, workspaceId: number): boolean {
  return roleIn(ctx, workspaceId) === 'admin';
}

/**
 * Asserts the caller may see a workspace; a workspace they do not belong to is answered
 * like one that does not exist (404), so ids of other tenants reveal nothing.
 */
export function assertMember(ctx: TrustedContext, workspaceId: number): Role {
  const role = roleIn(ctx, workspaceId);
  if (!role) throw AppError.notFound('WORKSPACE.NOT_FOUND', 'Workspace not found');
  return role;
}

/**
 * The workspace a request works in: the first one it names (body, query, multipart field or
 * header, in the order given), else the gateway's `ctx.ws`. Every workspace id seen is
 * authorised: not a member → 404 (assertMember).
 */
export function workspaceInView(
  ctx: TrustedContext,
  named: ReadonlyArray<number | null | undefined>,
): number | null {
  const ids = named.filter((id): id is number => typeof id === 'number');
  for (const id of new Set([...ids, ...(ctx.ws === null ? [] : [ctx.ws])])) assertMember(ctx, id);
  return ids[0] ?? ctx.ws;
}

export function assertAdmin(ctx: TrustedContext, workspaceId: number): void {
  if (assertMember(ctx, workspaceId) !== 'admin') throw AppError.forbidden();
}

export function assertSuperAdmin(ctx: TrustedContext): void {
  if (!ctx.sa) throw AppError.forbidden();
}
