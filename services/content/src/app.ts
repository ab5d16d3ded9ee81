import { createHttpApp, type ServiceDeps } from '@aict/service-kit';
import type { Config } from './config';

export interface AppDeps extends ServiceDeps {
  config: Readonly<Config>;
}

/** The content service's HTTP app (routes arrive with their issues). */
export function createApp(deps: AppDeps) {
  return createHttpApp({
    service: 'content',
    logger: deps.logger,
    readiness: deps.readiness,
    routes: () => {},
  });
}
