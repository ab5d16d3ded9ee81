import pino, { type Logger } from 'pino';
import { currentContext } from './context';

/**
 * JSON logs. Every line carries the request id of the work in progress, and
 * anything that looks like a secret is redacted wherever it appears.
 */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'apiKey',
  '*.apiKey',
  'value',
  'token',
  '*.token',
  'authorization',
  'cookie',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'secret',
  '*.secret',
];

export function createLogger(
  service: string,
  options: { level?: string; destination?: pino.DestinationStream } = {},
): Logger {
  return pino(
    {
      name: service,
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const ctx = currentContext();
        return ctx ? { requestId: ctx.requestId } : {};
      },
    },
    options.destination,
  );
}

export type { Logger };
