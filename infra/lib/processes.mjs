// Starting, probing and stopping the local servers.
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { LOG_DIR, RUN_DIR } from './paths.mjs';

export const execFileP = promisify(execFile);

export function tcpOpen(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function httpOk(url, timeoutMs = 1500) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok;
  } catch {
    return false;
  }
}

export async function waitFor(probe, { timeoutMs, intervalMs = 250 }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await sleep(intervalMs);
  }
  return false;
}

export function logFile(name) {
  return join(LOG_DIR, `${name}.log`);
}

export function tail(file, lines = 20) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Starts a detached background process whose output goes to .data/logs/<name>.log. */
export function startDetached(name, command, args, env = {}) {
  mkdirSync(LOG_DIR, { recursive: true });
  mkdirSync(RUN_DIR, { recursive: true });
  const out = openSync(logFile(name), 'a');
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env },
  });
  child.unref();
  writeFileSync(join(RUN_DIR, `${name}.pid`), String(child.pid));
  return child.pid;
}

export function readPid(name) {
  const file = join(RUN_DIR, `${name}.pid`);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8'));
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** True unless `pid` is certainly gone (EPERM means it lives under another user). */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Stops a process started by startDetached: SIGTERM, then SIGKILL after a grace period. */
export async function stopDetached(name, graceMs = 10_000) {
  const pid = readPid(name);
  rmSync(join(RUN_DIR, `${name}.pid`), { force: true });
  if (!pid || !isAlive(pid)) return false;
  process.kill(pid, 'SIGTERM');
  if (!(await waitFor(() => !isAlive(pid), { timeoutMs: graceMs }))) process.kill(pid, 'SIGKILL');
  return true;
}

export class InfraError extends Error {
  constructor(part, reason, log) {
    super(`${part} failed: ${reason}${log ? `\n--- last lines of ${log} ---\n${tail(log)}` : ''}`);
    this.part = part;
  }
}
