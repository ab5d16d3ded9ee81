import { amqpEnv, envPort, httpEnv, mongoEnv } from '@aict/service-kit';
import type { z } from 'zod';

/** The auth service's environment, parsed once at start-up. */
export const configSchema = httpEnv.extend({ ...mongoEnv.shape, ...amqpEnv.shape, PORT: envPort.default(4101) });

export type Config = z.output<typeof configSchema>;
