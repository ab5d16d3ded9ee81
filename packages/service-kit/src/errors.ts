import { ERROR_DEFAULT_MESSAGES } from '@aict/contracts';

/**
 * The one error type of the services. `code` is a string that survives a process
 * boundary (`PROMPT.NOT_FOUND`); `message` is what a user reads, worded exactly as
 * the specification words it where it does.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers?: Record<string, string>;

  constructor(
    code: string,
    status: number,
    message: string,
    options: { details?: unknown; cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.headers = options.headers;
  }

  static badRequest(code: string, message: string, details?: unknown) {
    return new AppError(code, 400, message, { details });
  }
  static unauthorized(message = 'Not authenticated', code = 'AUTH.UNAUTHENTICATED') {
    return new AppError(code, 401, message);
  }
  /** 403, in the specification's words unless told otherwise. */
  static forbidden(message = ERROR_DEFAULT_MESSAGES['AUTH.FORBIDDEN'], code = 'AUTH.FORBIDDEN') {
    return new AppError(code, 403, message);
  }
  static notFound(code: string, message: string) {
    return new AppError(code, 404, message);
  }
  static conflict(code: string, message: string, details?: unknown) {
    return new AppError(code, 409, message, { details });
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
