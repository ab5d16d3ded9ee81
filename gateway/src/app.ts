import { createHttpApp, type ServiceDeps } from '@aict/service-kit';
import type { Config } from './config';
import { createApiProxy } from './proxy';
import { securityHeaders } from './security';
import { mountFrontends } from './static';

export interface GatewayDeps extends Pick<ServiceDeps, 'logger' | 'readiness' | 'onStop'> {
  config: Readonly<Config>;
}

/** The only door: `/api` goes to the owning service, everything else is the front-ends. */
export function createApp(deps: GatewayDeps) {
  const { config, logger } = deps;
  const proxy = createApiProxy({
    targets: {
      auth: config.AUTH_SERVICE_URL,
      workspace: config.WORKSPACE_SERVICE_URL,
      prompt: config.PROMPT_SERVICE_URL,
      content: config.CONTENT_SERVICE_URL,
      generation: config.GENERATION_SERVICE_URL,
    },
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    logger,
  });
  deps.onStop('upstream-agent', () => proxy.agent.destroy());
  return createHttpApp({
    service: 'gateway',
    logger,
    readiness: deps.readiness,
    trustProxy: 'loopback',
    routes: (app) => {
      app.use(securityHeaders());
      app.use(proxy.middleware);
      mountFrontends(app, config.STATIC_DIR);
    },
  });
}
