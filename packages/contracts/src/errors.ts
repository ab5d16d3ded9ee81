import { z } from 'zod';
import { ERROR_DEFAULT_MESSAGES } from './constants';

/** The body of every error response: `message` is user-facing (the SPEC's wording where it has one). */
export const ErrorBody = z.object({
  code: z.string().min(1),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Error codes: strings that survive a process boundary. */
export const ErrorCode = {
  AUTH_UNAUTHENTICATED: 'AUTH.UNAUTHENTICATED',
  AUTH_INVALID_CREDENTIALS: 'AUTH.INVALID_CREDENTIALS',
  AUTH_FORBIDDEN: 'AUTH.FORBIDDEN',
  VALIDATION_FAILED: 'VALIDATION.FAILED',
  NOT_FOUND: 'NOT_FOUND',
  USER_NOT_FOUND: 'USER.NOT_FOUND',
  USER_USERNAME_TAKEN: 'USER.USERNAME_TAKEN',
  USER_EMAIL_TAKEN: 'USER.EMAIL_TAKEN',
  USER_CANNOT_DELETE_SELF: 'USER.CANNOT_DELETE_SELF',
  USER_CANNOT_CHANGE_OWN_SUPER_ADMIN: 'USER.CANNOT_CHANGE_OWN_SUPER_ADMIN',
  /** A workspace admin's new user could not be added to the workspace, so it was undone. */
  USER_NOT_CREATED: 'USER.NOT_CREATED',
  WORKSPACE_NOT_FOUND: 'WORKSPACE.NOT_FOUND',
  WORKSPACE_NAME_TAKEN: 'WORKSPACE.NAME_TAKEN',
  WORKSPACE_DEFAULT_NOT_DELETABLE: 'WORKSPACE.DEFAULT_NOT_DELETABLE',
  /** The gateway: the request names a workspace the caller is not a member of. */
  WORKSPACE_FORBIDDEN: 'WORKSPACE.FORBIDDEN',
  MEMBERSHIP_NOT_FOUND: 'MEMBERSHIP.NOT_FOUND',
  /** The change would leave a workspace without an admin. */
  MEMBERSHIP_LAST_ADMIN: 'MEMBERSHIP.LAST_ADMIN',
  /** A workspace admin named a user they do not administer. */
  MEMBERSHIP_USER_NOT_MANAGEABLE: 'MEMBERSHIP.USER_NOT_MANAGEABLE',
  SETTING_NOT_FOUND: 'SETTING.NOT_FOUND',
  PROMPT_NOT_FOUND: 'PROMPT.NOT_FOUND',
  PROMPT_DEFAULT_NOT_FOUND: 'PROMPT.DEFAULT_NOT_FOUND',
  PROMPT_REFERENCE_LIMIT: 'PROMPT.REFERENCE_LIMIT',
  CONTENT_NOT_FOUND: 'CONTENT.NOT_FOUND',
  /** A review change that no longer fits the content's review state (changed meanwhile). */
  CONTENT_REVIEW_CONFLICT: 'CONTENT.REVIEW_CONFLICT',
  FILE_NOT_FOUND: 'FILE.NOT_FOUND',
  FILE_INVALID_TYPE: 'FILE.INVALID_TYPE',
  FILE_TOO_LARGE: 'FILE.TOO_LARGE',
  FILE_TOO_MANY: 'FILE.TOO_MANY',
  FILE_TOTAL_TOO_LARGE: 'FILE.TOTAL_TOO_LARGE',
  PROVIDER_KEY_MISSING: 'PROVIDER.KEY_MISSING',
  PROVIDER_INVALID_KEY: 'PROVIDER.INVALID_KEY',
  PROVIDER_RATE_LIMITED: 'PROVIDER.RATE_LIMITED',
  /** The provider refused the call because the account is out of credit (`insufficient_quota`). */
  PROVIDER_QUOTA_EXCEEDED: 'PROVIDER.QUOTA_EXCEEDED',
  PROVIDER_UNAVAILABLE: 'PROVIDER.UNAVAILABLE',
  PROVIDER_TIMEOUT: 'PROVIDER.TIMEOUT',
  PROVIDER_URL_NOT_ALLOWED: 'PROVIDER.URL_NOT_ALLOWED',
  /** The provider answered with a stream that ended before it said it was done. */
  PROVIDER_TRUNCATED: 'PROVIDER.TRUNCATED',
  /** A file whose text could not be read in time or within the limits (hostile or broken). */
  FILE_UNREADABLE: 'FILE.UNREADABLE',
  /** The model does not belong to the prompt's content type or is not offered (SPEC §9). */
  GENERATION_MODEL_NOT_ALLOWED: 'GENERATION.MODEL_NOT_ALLOWED',
  /** The same Idempotency-Key with another request body, or while the first is running. */
  GENERATION_IDEMPOTENCY_CONFLICT: 'GENERATION.IDEMPOTENCY_CONFLICT',
  /** One workspace has as many generations running and waiting as one replica takes. */
  GENERATION_WORKSPACE_BUSY: 'GENERATION.WORKSPACE_BUSY',
  /** The caller's rights changed while generating (user deleted, membership removed): stopped, not saved. */
  GENERATION_ACCESS_REVOKED: 'GENERATION.ACCESS_REVOKED',
  /** The workspace spent its monthly budget: refused before any provider call. */
  GENERATION_BUDGET_REACHED: 'GENERATION.BUDGET_REACHED',
  /** The user spent the monthly cap their workspace admin set: refused before any provider call. */
  GENERATION_USER_CAP_REACHED: 'GENERATION.USER_CAP_REACHED',
  /** The user sent more generations this minute than the workspace allows (Retry-After). */
  GENERATION_RATE_LIMITED: 'GENERATION.RATE_LIMITED',
  RATE_LIMITED: 'RATE_LIMITED',
  /** The gateway: the service that owns the path did not answer. */
  GATEWAY_UPSTREAM_UNAVAILABLE: 'GATEWAY.UPSTREAM_UNAVAILABLE',
  /** The gateway: the service did not answer within the route's budget. */
  GATEWAY_UPSTREAM_TIMEOUT: 'GATEWAY.UPSTREAM_TIMEOUT',
  /** The gateway: the request body is larger than the route accepts. */
  GATEWAY_BODY_TOO_LARGE: 'GATEWAY.BODY_TOO_LARGE',
  /** The gateway: the client sent its request (headers or body) too slowly. */
  GATEWAY_REQUEST_TIMEOUT: 'GATEWAY.REQUEST_TIMEOUT',
  /** The service's document store (MongoDB / FerretDB) cannot be reached: 503 with Retry-After. */
  DATABASE_UNAVAILABLE: 'DATABASE.UNAVAILABLE',
  /** The object store (MinIO / S3) cannot be reached: 503 with Retry-After. */
  STORAGE_UNAVAILABLE: 'STORAGE.UNAVAILABLE',
  /** A connection to a server the service needs broke (a socket error): 503 with Retry-After. */
  SERVICE_UNAVAILABLE: 'SERVICE.UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The HTTP status of each code. */
const ERROR_STATUS: Record<ErrorCode, number> = {
  'AUTH.UNAUTHENTICATED': 401,
  'AUTH.INVALID_CREDENTIALS': 401,
  'AUTH.FORBIDDEN': 403,
  'VALIDATION.FAILED': 400,
  NOT_FOUND: 404,
  'USER.NOT_FOUND': 404,
  'USER.USERNAME_TAKEN': 409,
  'USER.EMAIL_TAKEN': 409,
  'USER.CANNOT_DELETE_SELF': 400,
  'USER.CANNOT_CHANGE_OWN_SUPER_ADMIN': 400,
  'USER.NOT_CREATED': 503,
  'WORKSPACE.NOT_FOUND': 404,
  'WORKSPACE.NAME_TAKEN': 409,
  'WORKSPACE.DEFAULT_NOT_DELETABLE': 400,
  'WORKSPACE.FORBIDDEN': 403,
  'MEMBERSHIP.NOT_FOUND': 404,
  'MEMBERSHIP.LAST_ADMIN': 409,
  'MEMBERSHIP.USER_NOT_MANAGEABLE': 403,
  'SETTING.NOT_FOUND': 404,
  'PROMPT.NOT_FOUND': 404,
  'PROMPT.DEFAULT_NOT_FOUND': 404,
  'PROMPT.REFERENCE_LIMIT': 400,
  'CONTENT.NOT_FOUND': 404,
  'CONTENT.REVIEW_CONFLICT': 409,
  'FILE.NOT_FOUND': 404,
  'FILE.INVALID_TYPE': 400,
  'FILE.TOO_LARGE': 413,
  'FILE.TOO_MANY': 400,
  'FILE.TOTAL_TOO_LARGE': 413,
  'PROVIDER.KEY_MISSING': 400,
  'PROVIDER.INVALID_KEY': 400,
  'PROVIDER.RATE_LIMITED': 429,
  'PROVIDER.QUOTA_EXCEEDED': 402,
  'PROVIDER.UNAVAILABLE': 502,
  'PROVIDER.TIMEOUT': 504,
  'PROVIDER.URL_NOT_ALLOWED': 400,
  'PROVIDER.TRUNCATED': 502,
  'FILE.UNREADABLE': 422,
  'GENERATION.MODEL_NOT_ALLOWED': 400,
  'GENERATION.IDEMPOTENCY_CONFLICT': 409,
  'GENERATION.WORKSPACE_BUSY': 429,
  'GENERATION.ACCESS_REVOKED': 403,
  'GENERATION.BUDGET_REACHED': 402,
  'GENERATION.USER_CAP_REACHED': 402,
  'GENERATION.RATE_LIMITED': 429,
  RATE_LIMITED: 429,
  'GATEWAY.UPSTREAM_UNAVAILABLE': 502,
  'GATEWAY.UPSTREAM_TIMEOUT': 504,
  'GATEWAY.BODY_TOO_LARGE': 413,
  'GATEWAY.REQUEST_TIMEOUT': 408,
  'DATABASE.UNAVAILABLE': 503,
  'STORAGE.UNAVAILABLE': 503,
  'SERVICE.UNAVAILABLE': 503,
  INTERNAL: 500,
};

/**
 * The HTTP status and default message of each code. A thrower may pass a more precise
 * message; the defaults (ERROR_DEFAULT_MESSAGES in constants.ts, the zod-free entry that web-kit
 * translates from) quote the SPEC where it words the error.
 */
export const ERRORS: Record<ErrorCode, { status: number; message: string }> = Object.fromEntries(
  Object.entries(ERROR_STATUS).map(([code, status]) => [
    code,
    { status, message: ERROR_DEFAULT_MESSAGES[code as ErrorCode] },
  ]),
) as Record<ErrorCode, { status: number; message: string }>;

/** `details` of a VALIDATION.FAILED error: one entry per problem. */
export const ValidationIssue = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/**
 * The error body for a failed zod parse. Its message is the first problem's message, so a
 * toast shows the SPEC's text (e.g. 'Name is required').
 */
export function validationErrorBody(error: z.ZodError): ErrorBody {
  const details: ValidationIssue[] = error.issues.map((issue) => ({
    path: issue.path.filter((key): key is string | number => typeof key !== 'symbol'),
    message: issue.message,
  }));
  return {
    code: ErrorCode.VALIDATION_FAILED,
    message: details[0]?.message ?? ERRORS['VALIDATION.FAILED'].message,
    details,
  };
}
