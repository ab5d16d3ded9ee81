/**
 * The environment each Node process declares in its config schema (src/config.ts), read from
 * the TypeScript source with deploy/env-schema.ts: every key it declares, and those it requires.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { envKeysOf } from './env-schema';

export const ROOT = resolve(__dirname, '..');

/** The gateway and the five services, with the port each listens on (CONTRIBUTING.md). */
export const PROCESSES = [
  { name: 'auth', dir: 'services/auth', port: 4101 },
  { name: 'workspace', dir: 'services/workspace', port: 4102 },
  { name: 'prompt', dir: 'services/prompt', port: 4103 },
  { name: 'content', dir: 'services/content', port: 4104 },
  { name: 'generation', dir: 'services/generation', port: 4105 },
  { name: 'gateway', dir: 'gateway', port: 8080 },
] as const;

export type ProcessName = (typeof PROCESSES)[number]['name'];

export interface ProcessConfig {
  /** `<dir>/src/config.ts` */
  source: string;
  declared: Set<string>;
  required: string[];
}

export function readConfig(dir: string, root = ROOT): ProcessConfig {
  const source = `${dir}/src/config.ts`;
  const file = join(root, source);
  if (!existsSync(file)) throw new Error(`${source} does not exist`);
  const sharedFile = join(root, 'packages', 'service-kit', 'src', 'config.ts');
  const keys = envKeysOf(
    { text: readFileSync(file, 'utf8'), file: source },
    existsSync(sharedFile)
      ? { text: readFileSync(sharedFile, 'utf8'), file: 'packages/service-kit/src/config.ts' }
      : undefined,
  );
  if (keys.size === 0)
    throw new Error(`${source} declares no UPPER_CASE env key that deploy/env-schema.ts can read`);
  return {
    source,
    declared: new Set(keys.keys()),
    required: [...keys].filter(([, k]) => k.required).map(([name]) => name),
  };
}
