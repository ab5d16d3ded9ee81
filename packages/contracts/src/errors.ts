import { z } from 'zod';

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

/**
 * The HTTP status and default message of each code. A thrower may pass a more precise
 * message; the defaults quote the SPEC where it words the error.
 */
export const ERRORS: Record<ErrorCode, { status: number; message: string }> = {
  'AUTH.UNAUTHENTICATED': { status: 401, message: 'Not authenticated' },
  'AUTH.INVALID_CREDENTIALS': { status: 401, message: 'Invalid username or password' },
  'AUTH.FORBIDDEN': { status: 403, message: 'You do not have permission to do this' },
  'VALIDATION.FAILED': { status: 400, message: 'Invalid request' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  'USER.NOT_FOUND': { status: 404, message: 'User not found' },
  'USER.USERNAME_TAKEN': { status: 409, message: 'Username already exists' },
  'USER.EMAIL_TAKEN': { status: 409, message: 'Email already exists' },
  'USER.CANNOT_DELETE_SELF': {
    status: 400,
    message: 'Cannot Delete Self: You cannot delete your own account.',
  },
  'USER.CANNOT_CHANGE_OWN_SUPER_ADMIN': {
    status: 400,
    message: 'You cannot change your own super admin status.',
  },
  'USER.NOT_CREATED': {
    status: 503,
    message:
      'The user could not be added to the workspace, so it was not created. Please try again.',
  },
  'WORKSPACE.NOT_FOUND': { status: 404, message: 'Workspace not found' },
  'WORKSPACE.NAME_TAKEN': { status: 409, message: 'A workspace with this name already exists' },
  'WORKSPACE.DEFAULT_NOT_DELETABLE': { status: 400, message: 'Cannot Delete Default Workspace' },
  'WORKSPACE.FORBIDDEN': { status: 403, message: 'You are not a member of this workspace' },
  'MEMBERSHIP.NOT_FOUND': { status: 404, message: 'User is not a member of this workspace' },
  'MEMBERSHIP.LAST_ADMIN': {
    status: 409,
    message: 'A workspace needs at least one admin. Make another member an admin first.',
  },
  'MEMBERSHIP.USER_NOT_MANAGEABLE': {
    status: 403,
    message: 'You can only add users who belong to workspaces you administer.',
  },
  'SETTING.NOT_FOUND': { status: 404, message: 'Setting not found' },
  'PROMPT.NOT_FOUND': { status: 404, message: 'Prompt Not Found' },
  'PROMPT.DEFAULT_NOT_FOUND': {
    status: 404,
    message: 'No default prompt configured for this workspace',
  },
  'PROMPT.REFERENCE_LIMIT': {
    status: 400,
    message: 'You can only upload up to 4 reference images.',
  },
  'CONTENT.NOT_FOUND': { status: 404, message: 'Content not found' },
  'FILE.NOT_FOUND': { status: 404, message: 'File not found' },
  'FILE.INVALID_TYPE': {
    status: 400,
    message: 'Only PNG, JPG, JPEG, WebP, PDF, DOC, DOCX, and TXT files are allowed.',
  },
  'FILE.TOO_LARGE': { status: 413, message: 'Each file must be smaller than 10MB.' },
  'FILE.TOO_MANY': { status: 400, message: 'You can attach a maximum of 10 files.' },
  'FILE.TOTAL_TOO_LARGE': { status: 413, message: 'Total file size cannot exceed 30MB.' },
  'PROVIDER.KEY_MISSING': {
    status: 400,
    message: 'No API key is configured for this workspace or globally',
  },
  'PROVIDER.INVALID_KEY': { status: 400, message: 'The AI provider rejected the API key' },
  'PROVIDER.RATE_LIMITED': { status: 429, message: 'The AI provider is rate limiting requests' },
  'PROVIDER.QUOTA_EXCEEDED': {
    status: 402,
    message:
      'The AI provider account has run out of credit. Ask an administrator to check the plan and billing.',
  },
  'PROVIDER.UNAVAILABLE': { status: 502, message: 'The AI provider is unavailable' },
  'PROVIDER.TIMEOUT': { status: 504, message: 'The AI provider did not answer in time' },
  'PROVIDER.URL_NOT_ALLOWED': {
    status: 400,
    message: 'The base URL points at a private, loopback or link-local address',
  },
  'PROVIDER.TRUNCATED': {
    status: 502,
    message: 'The AI provider stopped answering half-way, please try again',
  },
  'FILE.UNREADABLE': { status: 422, message: 'The file could not be read' },
  'GENERATION.MODEL_NOT_ALLOWED': {
    status: 400,
    message: 'This model cannot be used for this prompt',
  },
  'GENERATION.IDEMPOTENCY_CONFLICT': {
    status: 409,
    message: 'This request was already sent with other data or is still running',
  },
  'GENERATION.WORKSPACE_BUSY': {
    status: 429,
    message:
      'This workspace already has many generations running. Please try again in a few seconds.',
  },
  'GENERATION.ACCESS_REVOKED': {
    status: 403,
    message: 'Your access changed while this was being generated, so it was stopped and not saved.',
  },
  RATE_LIMITED: { status: 429, message: 'Too many requests, please try again later' },
  'GATEWAY.UPSTREAM_UNAVAILABLE': {
    status: 502,
    message: 'The service is unavailable, please try again.',
  },
  'GATEWAY.UPSTREAM_TIMEOUT': {
    status: 504,
    message: 'The service did not answer in time, please try again.',
  },
  'GATEWAY.BODY_TOO_LARGE': {
    status: 413,
    message: 'The request is too large to be accepted.',
  },
  'GATEWAY.REQUEST_TIMEOUT': {
    status: 408,
    message: 'The request was sent too slowly and was stopped. Please try again.',
  },
  'DATABASE.UNAVAILABLE': {
    status: 503,
    message: 'The database is unavailable, please try again in a few seconds.',
  },
  'STORAGE.UNAVAILABLE': {
    status: 503,
    message: 'File storage is unavailable, please try again in a few seconds.',
  },
  'SERVICE.UNAVAILABLE': {
    status: 503,
    message: 'The service is briefly unavailable, please try again in a few seconds.',
  },
  INTERNAL: { status: 500, message: 'Something went wrong' },
};

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
