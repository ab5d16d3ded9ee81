import { baseServiceEnv, envPort } from '@aict/service-kit';
import type { z } from 'zod';

/** The workspace service's environment, parsed once at start-up. */
export const configSchema = baseServiceEnv.extend({ PORT: envPort.default(4102) });

export type Config = z.output<typeof configSchema>;
