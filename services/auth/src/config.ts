import { createPrivateKey } from 'node:crypto';
import {
  amqpEnv,
  contextEnv,
  envInt,
  envPem,
  envPort,
  envString,
  httpEnv,
  mongoEnv,
} from '@aict/service-kit';
import { FIELD_LIMITS, PASSWORD_MIN_LENGTH } from '@aict/contracts';
import { z } from 'zod';

/** An ES256 signing key: a PEM private key on the P-256 curve. */
const es256PrivateKey = envPem.refine((pem) => {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}, 'must be a PEM private key on the P-256 curve (ES256)');

const SUPERADMIN_KEYS = ['SUPERADMIN_USERNAME', 'SUPERADMIN_EMAIL', 'SUPERADMIN_PASSWORD'] as const;

/** The auth service's environment, parsed once at start-up. */
export const configSchema = httpEnv
  .extend({
    ...mongoEnv.shape,
    ...amqpEnv.shape,
    ...contextEnv.shape,
    PORT: envPort.default(4101),
    /** Signs the session tokens (ES256); the gateway verifies with the matching public key. */
    JWT_PRIVATE_KEY: es256PrivateKey,
    /** Lifetime of a session token and its cookie (ADR 0001: 12 h). */
    SESSION_TTL_SECONDS: envInt({ min: 60, max: 30 * 24 * 3600 }).default(43_200),
    /** The super administrator created at first start (all three, or none). */
    SUPERADMIN_USERNAME: envString
      .pipe(z.string().min(FIELD_LIMITS.usernameMin, 'must be at least 3 characters'))
      .optional(),
    SUPERADMIN_EMAIL: envString.pipe(z.email('must be an e-mail address')).optional(),
    SUPERADMIN_PASSWORD: z
      .string()
      .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .optional(),
    /**
     * Login/register attempts in one window: per client (MAX_PER_IP) and per username from
     * one client (MAX_PER_USERNAME). Counted in the database, shared by every replica.
     */
    RATE_LIMIT_WINDOW_SECONDS: envInt({ min: 1 }).default(300),
    RATE_LIMIT_MAX_PER_IP: envInt({ min: 1 }).default(10),
    RATE_LIMIT_MAX_PER_USERNAME: envInt({ min: 1 }).default(10),
  })
  .superRefine((config, ctx) => {
    const given = SUPERADMIN_KEYS.filter((key) => config[key] !== undefined);
    if (given.length === 0 || given.length === SUPERADMIN_KEYS.length) return;
    for (const key of SUPERADMIN_KEYS) {
      if (config[key] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `is required when ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set`,
        });
    }
  });

export type Config = z.output<typeof configSchema>;
