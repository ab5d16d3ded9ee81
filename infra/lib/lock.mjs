import { mkdirSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** A cross-process lock on a directory (mkdir is atomic). Stale locks (> 30 min) are broken. */
export async function withLock(path, fn) {
  for (;;) {
    try {
      mkdirSync(path);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(path).mtimeMs > 30 * 60_000)
          rmSync(path, { recursive: true, force: true });
      } catch {
        /* removed meanwhile */
      }
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}
