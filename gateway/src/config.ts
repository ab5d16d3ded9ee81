import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { amqpEnv, envInt, envPem, envPort, envString, envUrl, httpEnv } from '@aict/service-kit';
import { z } from 'zod';

/** Services speak plain HTTP inside the cluster (TLS there, if any, is the mesh's business). */
const serviceUrl = envUrl(['http']);

/** A PEM key turned ONCE into a KeyObject, refused unless it is a P-256 key (ES256). */
function es256Key(kind: 'public' | 'private') {
  return envPem.transform((pem, ctx): KeyObject => {
    let key: KeyObject;
    try {
      key = kind === 'public' ? createPublicKey(pem) : createPrivateKey(pem);
    } catch {
      ctx.addIssue({ code: 'custom', message: `must be a PEM ${kind} key` });
      return z.NEVER;
    }
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      ctx.addIssue({ code: 'custom', message: `must be a P-256 (ES256) ${kind} key` });
      return z.NEVER;
    }
    return key;
  });
}

/** The gateway's environment, parsed once at start-up. */
export const configSchema = httpEnv.extend({
  ...amqpEnv.shape,
  PORT: envPort.default(8080),
  /** Folder holding `shell/dist` and `<remote>/dist` (the built front-ends). */
  STATIC_DIR: envString,
  AUTH_SERVICE_URL: serviceUrl,
  WORKSPACE_SERVICE_URL: serviceUrl,
  PROMPT_SERVICE_URL: serviceUrl,
  CONTENT_SERVICE_URL: serviceUrl,
  GENERATION_SERVICE_URL: serviceUrl,
  /**
   * How long a service may stay silent (not one byte) before the gateway gives up on it:
   * an idle timeout, not a total one, so a stream that keeps sending is never cut.
   */
  UPSTREAM_TIMEOUT_MS: envInt({ min: 1000, max: 600_000 }).default(120_000),
  /** The auth service's public key: session tokens are verified with it (ES256 only). */
  JWT_PUBLIC_KEY: es256Key('public'),
  /** Signs the `x-aict-context` header; services verify with CONTEXT_PUBLIC_KEY. */
  CONTEXT_PRIVATE_KEY: es256Key('private'),
});

export type Config = z.output<typeof configSchema>;
