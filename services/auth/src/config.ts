import { createPrivateKey } from 'node:crypto';
import {
  amqpEnv,
  contextEnv,
  envBool,
  envInt,
  envPem,
  envPort,
  envString,
  envUrl,
  httpEnv,
  mongoEnv,
  outboxEnv,
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
/** Single sign-on is on when all of these are set (and off when none is). */
const OIDC_KEYS = [
  'OIDC_ISSUER_URL',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_REDIRECT_URI',
] as const;

/** The auth service's environment, parsed once at start-up. */
export const configSchema = httpEnv
  .extend({
    ...mongoEnv.shape,
    ...amqpEnv.shape,
    ...outboxEnv.shape,
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
    /** Audit entries older than this many days go (0: kept for ever); checked once an hour. */
    AUDIT_RETENTION_DAYS: envInt({ min: 0 }).default(0),
    RATE_LIMIT_MAX_PER_IP: envInt({ min: 1 }).default(10),
    RATE_LIMIT_MAX_PER_USERNAME: envInt({ min: 1 }).default(10),
    /**
     * Single sign-on (OpenID Connect, authorization code with PKCE): the provider's issuer,
     * this client's id and secret, and the public address of GET /api/auth/oidc/callback
     * as registered at the provider.
     */
    OIDC_ISSUER_URL: envUrl(['https', 'http']).optional(),
    OIDC_CLIENT_ID: envString.optional(),
    OIDC_CLIENT_SECRET: envString.optional(),
    OIDC_REDIRECT_URI: envUrl(['https', 'http']).optional(),
    /** Scopes asked for; the one granting OIDC_ROLES_CLAIM included. */
    OIDC_SCOPES: envString.default('openid profile email groups'),
    /** The claim listing workspaces and roles: values `<prefix>:<workspace name>:admin|user`. */
    OIDC_ROLES_CLAIM: envString.default('groups'),
    OIDC_ROLES_PREFIX: envString.default('aict'),
    /** The sign-in button says "Sign in with <label>". */
    OIDC_BUTTON_LABEL: envString.default('SSO'),
    /** Whether users who came through single sign-on may also sign in with a password. */
    OIDC_PASSWORD_LOGIN: envBool.default(true),
    /** Where the browser lands after signing in (relative to the app's origin). */
    OIDC_APP_PATH: envString.default('/'),
    /** Lets the client talk to an `http://` issuer (local tests only). */
    OIDC_ALLOW_HTTP: envBool.default(false),
  })
  .superRefine((config, ctx) => {
    const oidc = OIDC_KEYS.filter((key) => config[key] !== undefined);
    if (oidc.length > 0 && oidc.length < OIDC_KEYS.length) {
      for (const key of OIDC_KEYS) {
        if (config[key] === undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: `is required for single sign-on` });
      }
    }
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
