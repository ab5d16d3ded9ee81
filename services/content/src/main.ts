import { EVENTS } from '@aict/contracts';
import { runService, type RunServiceOptions } from '@aict/service-kit';
import { createApp } from './app';
import { configSchema } from './config';

/** Unacked messages per consumer (content.store requests, workspace.deleted). */
export const CONTENT_BUS_PREFETCH = 8;

type Options = Pick<RunServiceOptions<typeof configSchema>, 'env' | 'exit' | 'logDestination'>;

export function start(options: Options = {}) {
  return runService({
    name: 'content',
    configSchema,
    // Event data is validated against the contracts when it is published. Prefetch: see
    // GENERATION_COMPLETED_PREFETCH (a backlog must not starve HTTP); content.store too.
    bus: { schemas: EVENTS, prefetch: CONTENT_BUS_PREFETCH },
    ...options,
    start: (config, deps) => createApp({ ...deps, config }),
  });
}

if (require.main === module) void start().catch(() => process.exit(1));
