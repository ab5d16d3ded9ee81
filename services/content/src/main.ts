import { EVENTS } from '@aict/contracts';
import { runService, type RunServiceOptions } from '@aict/service-kit';
import { createApp } from './app';
import { configSchema } from './config';

type Options = Pick<RunServiceOptions<typeof configSchema>, 'env' | 'exit' | 'logDestination'>;

export function start(options: Options = {}) {
  return runService({
    name: 'content',
    configSchema,
    // Event data is validated against the contracts when it is published.
    bus: { schemas: EVENTS },
    ...options,
    start: (config, deps) => createApp({ ...deps, config }),
  });
}

if (require.main === module) void start().catch(() => process.exit(1));
