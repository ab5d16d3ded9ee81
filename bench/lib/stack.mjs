// The product stack for a benchmark (scripts/lib/stack.mjs, profile `bench`: gateway 28080,
// services 24101–24105, simulator 24190), serialised with every other stack benchmark:
// the process holds /tmp/aict-bench.lock (flock) and waits while bench/content/run.mjs runs
// (it uses the same ports). Fresh databases and a RabbitMQ vhost of this run alone.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { dropDatabases, startStack } from '../../scripts/lib/stack.mjs';
import { log, privateVhost } from './report.mjs';

const LOCK = '/tmp/aict-bench.lock';

/** Runs this script again under the lock (once); returns only inside the lock. */
export function holdBenchLock() {
  if (process.env.AICT_BENCH_LOCKED === '1') return;
  const r = spawnSync('flock', [LOCK, process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, AICT_BENCH_LOCKED: '1' },
  });
  process.exit(r.status ?? 1);
}

function contentBenchRunning() {
  try {
    return (
      execFileSync('pgrep', ['-f', 'bench/content/run.mjs'], { encoding: 'utf8' }).trim() !== ''
    );
  } catch {
    return false; // pgrep exits 1 when nothing matches
  }
}

/** Waits while bench/content/run.mjs (not run by this suite) uses the bench profile. */
export async function waitForContentBench() {
  let told = false;
  while (contentBenchRunning()) {
    if (!told) log('  waiting: bench/content/run.mjs is running on the bench profile ports …');
    told = true;
    await sleep(5000);
  }
}

export async function startBenchStack(label, { simulator = true, env = {} } = {}) {
  await waitForContentBench();
  const vhost = await privateVhost(label);
  const suffix = `${label.replace(/[^a-z0-9]/gi, '')}${randomBytes(3).toString('hex')}`;
  let stack;
  try {
    stack = await startStack({
      profile: 'bench',
      simulator,
      dbSuffix: suffix,
      env: { LOG_LEVEL: 'warn', AMQP_URL: vhost.url, ...env },
    });
  } catch (err) {
    await vhost.drop();
    throw err;
  }
  const stop = async () => {
    await stack.stop();
    await dropDatabases(stack.databases);
    await vhost.drop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => void stop().then(() => process.exit(130)));
  return { ...stack, stop };
}

/** Signs in through the gateway; the session cookie. */
export async function signIn(baseUrl, { username, password }) {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${username}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}
