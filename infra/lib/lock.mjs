import { hostname } from 'node:os';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './processes.mjs';

const OWNER_FILE = 'owner.json';
/** A lock without an owner file (left by an older version of this file) is broken after this. */
const OWNERLESS_STALE_MS = 30 * 60_000;

/** Who holds the lock at `path`, or null when the lock names no owner (or is gone). */
export function readLockOwner(path) {
  try {
    return JSON.parse(readFileSync(join(path, OWNER_FILE), 'utf8'));
  } catch {
    return null;
  }
}

const sameOwner = (a, b) => a?.pid === b?.pid && a?.started === b?.started && a?.host === b?.host;

/**
 * Removes the lock whose owner is `dead`: it is first renamed aside (atomic), so two waiters
 * that both found the owner gone cannot both remove it, and a lock taken meanwhile by a live
 * process is put back.
 */
function breakLock(path, dead) {
  const aside = `${path}.broken-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // removed or broken by someone else meanwhile
  }
  if (!sameOwner(readLockOwner(aside), dead)) {
    try {
      renameSync(aside, path); // a live owner's lock: give it back
      return;
    } catch {
      /* the path was taken again meanwhile: fall through and drop the copy */
    }
  }
  rmSync(aside, { recursive: true, force: true });
}

function ageMs(path) {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Why the lock at `path` may be taken now: its owner is gone, or it is an old ownerless one. */
function isAbandoned(path, owner) {
  if (owner) return owner.host === hostname() && !isAlive(owner.pid);
  return ageMs(path) > OWNERLESS_STALE_MS;
}

/**
 * A cross-process lock on a directory (mkdir is atomic). The directory holds `owner.json`
 * (pid, host, command, started); a lock whose owner process is gone on this host is broken
 * at once, and a waiter says once what it waits for and who holds it.
 *
 * @param {string} path the lock directory
 * @param {() => Promise<T>} fn runs while the lock is held
 * @param {{ what?: string, log?: (line: string) => void, pollMs?: number }} [options]
 * @returns {Promise<T>}
 * @template T
 */
export async function withLock(path, fn, options = {}) {
  const what = options.what ?? basename(path);
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const pollMs = options.pollMs ?? 500;
  const me = {
    pid: process.pid,
    host: hostname(),
    command: process.argv.slice(1).join(' '),
    started: new Date().toISOString(),
  };
  let announced = false;
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, OWNER_FILE), JSON.stringify(me));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const owner = readLockOwner(path);
    if (isAbandoned(path, owner)) {
      log(
        owner
          ? `${what}: breaking the lock of pid ${owner.pid} (${owner.command}), which is gone`
          : `${what}: breaking an ownerless lock older than 30 minutes (${path})`,
      );
      breakLock(path, owner);
      continue;
    }
    if (!announced && (owner || ageMs(path) > 2_000)) {
      // (an ownerless lock younger than that is most likely being written by its owner)
      announced = true;
      log(
        owner
          ? `waiting for ${what} (held by pid ${owner.pid} on ${owner.host} since ${owner.started}: ${owner.command})`
          : `waiting for ${what} (held by an unknown process; remove ${path} if no run is active)`,
      );
    }
    await sleep(pollMs);
  }
  try {
    return await fn();
  } finally {
    if (sameOwner(readLockOwner(path), me)) rmSync(path, { recursive: true, force: true });
  }
}
