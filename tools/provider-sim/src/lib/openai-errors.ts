/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** An error the simulator answers with, in the shape and status the real API uses. */
export class SimHttpError extends Error {
  override name = 'SimHttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null = null,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): OpenAIErrorBody {
    return {
      error: { message: this.message, type: this.type, param: this.param, code: this.code },
    };
  }
}

/** 'sk-abc…wxyz' in the style of OpenAI's messages (never the whole key). */
export function maskKey(key: string): string {
  if (key.length <= 8) return `${key.slice(0, 3)}***`;
  return `${key.slice(0, 6)}***${key.slice(-4)}`;
}

export const simErrors = {
  missingKey: () =>
    new SimHttpError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      'invalid_request_error',
    ),
  invalidKey: (key: string | null, message?: string) =>
    new SimHttpError(
      401,
      message ??
        `Incorrect API key provided: ${maskKey(key ?? '')}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      'invalid_request_error',
      'invalid_api_key',
    ),
  rateLimit: (model: string | undefined, retryAfterSeconds: number, message?: string) =>
    new SimHttpError(
      429,
      message ??
        `Rate limit reached for ${model ?? 'requests'} in organization org-provider-sim on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${retryAfterSeconds}s.`,
      'requests',
      'rate_limit_exceeded',
      null,
      {
        'retry-after': String(retryAfterSeconds),
        'x-ratelimit-limit-requests': '3',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': `${retryAfterSeconds}s`,
      },
    ),
  insufficientQuota: (message?: string) =>
    new SimHttpError(
      429,
      message ?? 'You exceeded your current quota, please check your plan and billing details.',
      'insufficient_quota',
      'insufficient_quota',
    ),
  serverError: (message?: string) =>
    new SimHttpError(
      500,
      message ?? 'The server had an error while processing your request. Sorry about that!',
      'server_error',
    ),
  invalidUrl: (method: string, path: string) =>
    new SimHttpError(404, `Invalid URL (${method} ${path})`, 'invalid_request_error'),
  badRequest: (message: string, param: string | null = null, code: string | null = null) =>
    new SimHttpError(400, message, 'invalid_request_error', code, param),
  modelNotFound: (model: string) =>
    new SimHttpError(
      404,
      `The model \`${model}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
      'model_not_found',
    ),
  tooLarge: (limit: number) =>
    new SimHttpError(
      413,
      `Request body too large (limit ${limit} bytes).`,
      'invalid_request_error',
    ),
};
