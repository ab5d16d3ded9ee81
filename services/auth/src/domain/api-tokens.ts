import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  API_TOKEN_PREFIX,
  ERRORS,
  ErrorCode,
  type ApiTokenVerifyReply,
  type CreateApiTokenBody,
  type TrustedContext,
} from '@aict/contracts';
import { AppError, type Envelope } from '@aict/service-kit';
import type { ApiTokenRecord } from '../data/api-token.model';
import { auditEnvelope } from './audit-acts';
import type { AuthDeps } from './auth-deps';
import { documentKey } from './keyed-lock';
import { userErrors } from './user.errors';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Tokens a user may hold at once (revoked ones do not count). */
export const MAX_ACTIVE_TOKENS = 50;
const HINT_LENGTH = API_TOKEN_PREFIX.length + 4;

/** The SHA-256 (hex) of a secret: the stored key. The secret is 256 random bits, so no salt. */
export function hashApiToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function newSecret(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

const tokenErrors = {
  notFound: () => new AppError(ErrorCode.NOT_FOUND, 404, 'API token not found.'),
  notMember: () =>
    new AppError(
      ErrorCode.WORKSPACE_FORBIDDEN,
      ERRORS['WORKSPACE.FORBIDDEN'].status,
      'You can only create a token for a workspace you belong to.',
    ),
  tooMany: () =>
    new AppError(
      ErrorCode.VALIDATION_FAILED,
      400,
      `You can have at most ${MAX_ACTIVE_TOKENS} API tokens; revoke one first.`,
    ),
};

const tokenKey = (hash: string) => documentKey('api_tokens', hash);

/** A token as the log shows it: never the secret, its hash or its hint. */
function tokenSummary(token: ApiTokenRecord) {
  return {
    name: token.name,
    workspaceId: token.workspaceId,
    scopes: token.scopes.join(' '),
    expiresAt: token.expiresAt.toISOString(),
  };
}

/** A session only: a request made with a token never manages tokens (the gateway refuses it too). */
function ownerOf(ctx: TrustedContext): string {
  if (!ctx.uid) throw userErrors.unauthenticated();
  if (ctx.tok) throw userErrors.forbidden();
  return ctx.uid;
}

/**
 * assertSession → assertMember (of the workspace, from the signed context) → assertRoom →
 * new secret → store its hash → the record and the secret (shown once).
 */
export async function createApiToken(
  deps: AuthDeps,
  ctx: TrustedContext,
  body: z.output<typeof CreateApiTokenBody>,
  now = new Date(),
): Promise<{ record: ApiTokenRecord; secret: string }> {
  const userId = ownerOf(ctx);
  if (ctx.roles[String(body.workspaceId)] === undefined) throw tokenErrors.notMember();
  const active = await deps.apiTokens.listActive(userId);
  if (active.filter((t) => t.expiresAt > now).length >= MAX_ACTIVE_TOKENS) {
    throw tokenErrors.tooMany();
  }
  const secret = newSecret();
  const record: ApiTokenRecord = {
    _id: hashApiToken(secret),
    tokenId: randomUUID(),
    userId,
    workspaceId: body.workspaceId,
    name: body.name,
    scopes: body.scopes,
    hint: secret.slice(0, HINT_LENGTH),
    createdAt: now,
    expiresAt: new Date(now.getTime() + body.expiresInDays * DAY_MS),
    lastUsedAt: null,
    revokedAt: null,
  };
  const events = [
    auditEnvelope(deps, ctx, {
      action: 'api-token.created',
      workspaceId: record.workspaceId,
      targetType: 'api-token',
      targetId: record.tokenId,
      after: tokenSummary(record),
    }),
  ];
  await deps.apiTokens.insert(record, events);
  deps.events.publishSoon(deps.apiTokens.model, record._id);
  deps.logger.info(
    { tokenId: record.tokenId, userId, workspaceId: record.workspaceId, scopes: record.scopes },
    'api token created',
  );
  return { record, secret };
}

export async function listApiTokens(deps: AuthDeps, ctx: TrustedContext) {
  return deps.apiTokens.listActive(ownerOf(ctx));
}

/** Marks the caller's token revoked and announces `api-token.revoked` (outbox). */
export async function revokeApiToken(
  deps: AuthDeps,
  ctx: TrustedContext,
  tokenId: string,
  now = new Date(),
): Promise<Envelope[]> {
  const userId = ownerOf(ctx);
  const token = await deps.apiTokens.findOwn(userId, tokenId);
  if (!token || token.revokedAt) throw tokenErrors.notFound();
  const events = [
    deps.events.envelope('api-token.revoked', {
      tokenId: token.tokenId,
      userId,
      expiresAt: token.expiresAt.toISOString(),
    }),
    auditEnvelope(deps, ctx, {
      action: 'api-token.revoked',
      workspaceId: token.workspaceId,
      targetType: 'api-token',
      targetId: token.tokenId,
      before: tokenSummary(token),
    }),
  ];
  // Under the document's lock, like its outbox flushes (FerretDB v1 loses one of two
  // concurrent updates of a document: the creation's flush must not swallow the revocation).
  const revoked = await deps.locks.run(tokenKey(token._id), () =>
    deps.apiTokens.revoke(token._id, now, events),
  );
  if (!revoked) throw tokenErrors.notFound();
  deps.events.publishSoon(deps.apiTokens.model, token._id);
  deps.logger.info({ tokenId, userId }, 'api token revoked');
  return events;
}

/**
 * The gateway's question "what is this token?", by the secret's hash: null when unknown,
 * revoked or expired. Records the use (the gateway asks once per cache period).
 */
export async function verifyApiToken(
  deps: AuthDeps,
  hash: string,
  now = new Date(),
): Promise<ApiTokenVerifyReply> {
  const token = await deps.apiTokens.findByHash(hash);
  if (!token || token.revokedAt || token.expiresAt <= now) return { token: null };
  await deps.locks.run(tokenKey(hash), () => deps.apiTokens.touch(hash, now));
  return {
    token: {
      id: token.tokenId,
      userId: token.userId,
      workspaceId: token.workspaceId,
      scopes: token.scopes,
      expiresAt: token.expiresAt.toISOString(),
    },
  };
}
