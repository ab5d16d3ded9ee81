import type { RequestListener } from 'node:http';
import { createHttpApp, type ServiceDeps } from '@aict/service-kit';
import { mountApiDocs } from './api-docs';
import { ApiTokenVerifier, type ApiTokenLookup } from './access/api-tokens';
import { clientAddressOf } from './access/client-address';
import { ContextSigner } from './access/context-signer';
import { SessionVerifier } from './access/session';
import type { Config } from './config';
import type { IdentityEvent, IdentityState } from './identity/identity-state';
import { createApiProxy } from './proxy';
import { securityHeaderList, securityHeaders } from './security';
import { mountFrontends } from './static';

export interface GatewayDeps extends Pick<ServiceDeps, 'logger' | 'readiness' | 'onStop'> {
  config: Readonly<Config>;
  /** Users, roles and revocations, kept current by IdentitySync. */
  identity: IdentityState;
  /** Identity events read from a service's answer (IdentitySync.receive). */
  onIdentityEvents: (events: IdentityEvent[]) => void;
  /** Asks the auth service about a personal API token; without it, bearers are refused. */
  apiTokenLookup?: ApiTokenLookup;
}

/**
 * The only door: `/api` paths a service owns go to that service (proxy.ts, without express,
 * the hot path); everything else — the front-ends, /healthz, /readyz, unknown `/api`
 * paths (JSON 404), the API's OpenAPI document and reference (api-docs.ts) — is the express
 * app.
 */
export function createApp(deps: GatewayDeps): RequestListener {
  const { config, logger } = deps;
  const api = createApiProxy({
    targets: {
      auth: config.AUTH_SERVICE_URL,
      workspace: config.WORKSPACE_SERVICE_URL,
      prompt: config.PROMPT_SERVICE_URL,
      content: config.CONTENT_SERVICE_URL,
      generation: config.GENERATION_SERVICE_URL,
    },
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    answerTimeoutMs: {
      default: config.UPSTREAM_ANSWER_TIMEOUT_MS,
      generation: config.UPSTREAM_GENERATION_ANSWER_TIMEOUT_MS,
    },
    limits: {
      maxUploadBytes: config.MAX_UPLOAD_BODY_BYTES,
      maxJsonBytes: config.MAX_JSON_BODY_BYTES,
      bodyIdleTimeoutMs: config.CLIENT_BODY_IDLE_TIMEOUT_MS,
      bodyTimeoutMs: config.CLIENT_BODY_TIMEOUT_MS,
    },
    logger,
    access: {
      state: deps.identity,
      sessions: new SessionVerifier(config.JWT_PUBLIC_KEY, deps.identity),
      contexts: new ContextSigner(config.CONTEXT_PRIVATE_KEY),
      clientAddress: clientAddressOf(config.TRUSTED_PROXY_HOPS),
      apiTokens: deps.apiTokenLookup && new ApiTokenVerifier(deps.apiTokenLookup, deps.identity),
    },
    onIdentityEvents: deps.onIdentityEvents,
    responseHeaders: securityHeaderList(),
  });
  deps.onStop('upstream-agent', () => api.agent.destroy());
  const app = createHttpApp({
    service: 'gateway',
    logger,
    readiness: deps.readiness,
    trustProxy: 'loopback',
    // Never on the public port: the gateway's metrics are served on METRICS_PORT alone.
    metrics: false,
    routes: (express) => {
      express.use(securityHeaders());
      mountApiDocs(express);
      mountFrontends(express, config.STATIC_DIR);
    },
  });
  // No compression anywhere here: streams must not be buffered.
  return (req, res) => {
    if (!api.handle(req, res)) app(req, res);
  };
}
