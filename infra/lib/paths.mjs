import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DATA_DIR = process.env.AICT_DATA_DIR ?? join(ROOT, '.data');
export const LOG_DIR = join(DATA_DIR, 'logs');
export const RUN_DIR = join(DATA_DIR, 'run');
/** Built binaries live outside the work tree, keyed by version, so a warm machine never rebuilds. */
export const CACHE_DIR =
  process.env.AICT_CACHE_DIR ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'aict');
