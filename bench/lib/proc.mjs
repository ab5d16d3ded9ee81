// Child processes of a benchmark: launch with a log file, wait until ready, stop.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOG_DIR, ROOT } from '../../infra/lib/paths.mjs';

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function launch(name, script, env, cwd = ROOT) {
  mkdirSync(LOG_DIR, { recursive: true });
  const file = join(LOG_DIR, `bench-${name}.log`);
  const out = openSync(file, 'w');
  const child = spawn(process.execPath, [script], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', out, out],
  });
  return { name, child, file };
}

export async function waitReady(proc, url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null)
      throw new Error(
        `${proc.name} exited (${proc.child.exitCode}); its log:\n${readFileSync(proc.file, 'utf8').slice(-2000)}`,
      );
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(
    `${proc.name} not ready at ${url} within ${timeoutMs / 1000} s; log ${proc.file}`,
  );
}

export async function stopProc({ child }) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
