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
  /**
   * How long a service may take to start answering (from the last byte of the request sent to
   * it, or any silence while it is sent) before the gateway answers 504: JSON routes.
   */
  UPSTREAM_ANSWER_TIMEOUT_MS: envInt({ min: 100, max: 600_000 }).default(30_000),
  /** The same for the generation routes (provider calls with retries, uploads, streams). */
  UPSTREAM_GENERATION_ANSWER_TIMEOUT_MS: envInt({ min: 100, max: 900_000 }).default(300_000),
  /** A client must send a request's headers within this long (408, then closed). */
  CLIENT_HEADERS_TIMEOUT_MS: envInt({ min: 100, max: 120_000 }).default(20_000),
  /** A request body may stay silent (not one byte) this long before it is cut (408). */
  CLIENT_BODY_IDLE_TIMEOUT_MS: envInt({ min: 100, max: 300_000 }).default(15_000),
  /** A whole request body must arrive within this long (408): slow drips are cut too. */
  CLIENT_BODY_TIMEOUT_MS: envInt({ min: 100, max: 900_000 }).default(120_000),
  /**
   * Largest body of the upload routes (chat attachments: 30 MB in all, reference images,
   * logos) and the generation routes, multipart overhead included; larger: 413 at once.
   */
  MAX_UPLOAD_BODY_BYTES: envInt({ min: 1024, max: 1024 ** 3 }).default(32 * 1024 * 1024),
  /** Largest body of every other route (the services read JSON up to 1 MB). */
  MAX_JSON_BODY_BYTES: envInt({ min: 1024, max: 100 * 1024 * 1024 }).default(2 * 1024 * 1024),
  /**
   * Proxies in front of the gateway that append the client's address to X-Forwarded-For:
   * 0 (default) when clients connect directly, 1 behind one ingress. The client address the
   * services get (sign-in limits) is the socket's when 0, else the N-th from the right of
   * X-Forwarded-For. Too high a number lets clients choose their address.
   */
  TRUSTED_PROXY_HOPS: envInt({ min: 0, max: 10 }).default(0),
  /** The auth service's public key: session tokens are verified with it (ES256 only). */
  JWT_PUBLIC_KEY: es256Key('public'),
  /** Signs the `x-aict-context` header; services verify with CONTEXT_PUBLIC_KEY. */
  CONTEXT_PRIVATE_KEY: es256Key('private'),
});

export type Config = z.output<typeof configSchema>;
