import { LOGO_MAX_BYTES } from '@aict/contracts';
import {
  orphanSweepEnv,
  baseServiceEnv,
  outboxEnv,
  contextEnv,
  envInt,
  envPort,
  envUrl,
  providerUrlEnv,
} from '@aict/service-kit';
import { z } from 'zod';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The base64 of exactly 32 bytes (an AES-256 key): `openssl rand -base64 32`. */
const aesKey = z
  .string()
  .trim()
  .refine(
    (v) => BASE64.test(v) && Buffer.from(v, 'base64').length === 32,
    'must be the base64 of 32 random bytes (openssl rand -base64 32)',
  )
  .transform((v) => Buffer.from(v, 'base64'));

const keyId = z
  .string()
  .trim()
  .regex(/^[a-z0-9]{1,16}$/, 'must be 1-16 lowercase letters or digits');

/** Retired keys that still decrypt older values: `k0:<base64>,k00:<base64>`. */
const oldKeys = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z
        .string()
        .regex(/^[a-z0-9]{1,16}:[A-Za-z0-9+/]+={0,2}$/, 'must be a list of <keyId>:<base64 key>')
        .transform((entry) => {
          const [id, key] = entry.split(':') as [string, string];
          return { id, key: Buffer.from(key, 'base64') };
        })
        .refine((k) => k.key.length === 32, 'must hold keys of 32 bytes each'),
    ),
  );

/** The workspace service's environment, parsed once at start-up. */
export const configSchema = baseServiceEnv.extend({
  ...contextEnv.shape,
  ...outboxEnv.shape,
  PORT: envPort.default(4102),
  /** AES-256-GCM key for settings stored encrypted (the provider API keys). */
  SETTINGS_ENCRYPTION_KEY: aesKey,
  /** Written in front of every encrypted value, so that a key can be rotated. */
  SETTINGS_ENCRYPTION_KEY_ID: keyId.default('k1'),
  /** Earlier keys, still accepted for reading (rotation). */
  SETTINGS_ENCRYPTION_OLD_KEYS: oldKeys.default([]),
  /** The provider base URL when neither the workspace nor the global settings name one. */
  OPENAI_BASE_URL: envUrl(['http', 'https']).default('https://api.openai.com/v1'),
  /**
   * PROVIDER_URL_ALLOWED_ORIGINS: the only private (or plain http) origins a provider base URL
   * entered in the settings may name, e.g. the local run's simulator `http://127.0.0.1:4191`.
   * Empty in production: public https providers only.
   */
  ...providerUrlEnv.shape,
  /** How long "Test Connection" waits for the provider. */
  PROVIDER_TEST_TIMEOUT_MS: envInt({ min: 100, max: 60_000 }).default(5_000),
  /** Largest accepted logo upload, in bytes. */
  LOGO_MAX_BYTES: envInt({ min: 1024, max: 20 * 1024 * 1024 }).default(LOGO_MAX_BYTES),
  /** ORPHAN_SWEEP_*: objects no record points to (an outage between object and record) go. */
  ...orphanSweepEnv.shape,
});

export type Config = z.output<typeof configSchema>;
