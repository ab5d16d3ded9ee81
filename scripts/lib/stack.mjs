// Starts the product (every service, the gateway serving the built front-ends and,
// on request, the provider simulator) as child processes on the local infrastructure.
// Used by `npm start`, the end-to-end tests and the benchmarks.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOG_DIR, ROOT } from '../../infra/lib/paths.mjs';
import { infraSettings } from '../../infra/lib/servers.mjs';
import { tail } from '../../infra/lib/processes.mjs';
import { devSecrets } from './secrets.mjs';
import { supervise } from './supervisor.mjs';

export const SERVICES = ['auth', 'workspace', 'prompt', 'content', 'generation'];

/**
 * V8 flags of the product's processes (the services and the gateway; the Dockerfile sets the
 * same in NODE_OPTIONS). A young generation of at most 2 MB per semi-space: V8's own limit
 * lets it grow to 32–64 MB during start-up and keeps it, so each process stays some 15–25 MB
 * larger, idle and under load. The price is more frequent scavenges: roughly 15–20 % more CPU
 * per request under a load of small API calls.
 */
export const PRODUCT_NODE_FLAGS = ['--max-semi-space-size=2'];

/**
 * glibc malloc settings of the product's processes (the Dockerfile sets the same): two arenas,
 * allocations of 64 KB and more (socket read buffers among them) mapped on their own and
 * returned at once, and free memory at the top of the heap given back past 128 KB. Measured
 * with bench/memory over its 10-minute load: the generation service ended at 163 MB instead of
 * 199 MB (212 → 153 MB at minute 2); at rest and in the gateway's CPU per request no change
 * beyond the machine's noise. What the environment already sets wins.
 */
export const PRODUCT_MALLOC_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '65536',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

export const PROFILES = {
  dev: { gatewayPort: 8080, basePort: 4100, simPort: 4191, dbPrefix: 'aict', vhost: 'aict' },
  /** A second stack for tests that kill and restart services (e2e/fault.e2e.ts). */
  fault: {
    gatewayPort: 38080,
    basePort: 34100,
    simPort: 34190,
    dbPrefix: 'aictfault',
    vhost: 'aict-test',
  },
  e2e: {
    gatewayPort: 18080,
    basePort: 14100,
    simPort: 14190,
    dbPrefix: 'aicte2e',
    vhost: 'aict-test',
  },
  /**
   * Tests that stop private infrastructure (e2e/infra-fault.e2e.ts, infra/lib/private.mjs).
   * Below 32768: ports in Linux's ephemeral range (32768–60999) were taken now and then by
   * some client's outgoing connection, and the service could not listen.
   */
  infraFault: {
    gatewayPort: 29080,
    basePort: 29100,
    simPort: 29190,
    dbPrefix: 'aictinfra',
    vhost: 'aict-test',
  },
  bench: {
    gatewayPort: 28080,
    basePort: 24100,
    simPort: 24190,
    dbPrefix: 'aictbench',
    // Its own vhost: a bench stack must never answer another stack's requests.
    vhost: 'aict-bench',
  },
};

async function waitReady(name, url, child, log, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with ${child.exitCode}:\n${tail(log)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    await sleep(200);
  }
  throw new Error(`${name} was not ready at ${url} within ${timeoutMs / 1000} s:\n${tail(log)}`);
}

/** Whether a TCP port on 127.0.0.1 can be listened on now. */
function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Refuses to start a stack whose ports are held (by a stack of another run still going, say):
 * its processes would die with EADDRINUSE while the old ones answered the readiness checks.
 * @param {string} profile
 * @param {number[]} ports
 */
export async function assertPortsFree(profile, ports) {
  const held = [];
  for (const port of ports) if (!(await portIsFree(port))) held.push(port);
  if (held.length > 0) {
    throw new Error(
      `the ${profile} stack cannot start: port ${held.join(', ')} already in use ` +
        `(another stack still running? \`ss -ltnp | grep ${held[0]}\` names the process)`,
    );
  }
}

/**
 * @param {{ profile?: keyof PROFILES, simulator?: boolean, dbSuffix?: string, env?: Record<string,string>, infra?: ReturnType<typeof infraSettings>, supervised?: boolean, log?: (line: string) => void }} options
 *   `infra` points the stack at other servers than the shared ones (private test infrastructure).
 *   `supervised` (default: the dev profile, i.e. `npm start`): a process that dies unexpectedly
 *   is reported through `log` (the console) and started again (scripts/lib/supervisor.mjs), as
 *   Kubernetes would; `kill()` and `stop()` are meant and never fought.
 */
export async function startStack({
  profile = 'dev',
  simulator = false,
  dbSuffix = '',
  env = {},
  infra: infraOverride,
  supervised = profile === 'dev',
  log: report = (line) => console.log(line),
} = {}) {
  const p = PROFILES[profile];
  const infra = infraOverride ?? infraSettings();
  const secrets = devSecrets();
  const children = [];
  mkdirSync(LOG_DIR, { recursive: true });
  const db = (service) => `${p.dbPrefix}${dbSuffix}_${service}`;
  const bucket = (service) => `${p.dbPrefix}${dbSuffix}-${service}`.toLowerCase();
  const urls = Object.fromEntries(
    SERVICES.map((s, i) => [s, `http://127.0.0.1:${p.basePort + i + 1}`]),
  );
  const common = {
    NODE_ENV: profile === 'dev' ? 'development' : 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    AMQP_URL: `amqp://guest:guest@${infra.rabbit.host}:${infra.rabbit.port}/${p.vhost}`,
    MINIO_ENDPOINT: `http://${infra.minio.host}:${infra.minio.port}`,
    MINIO_ACCESS_KEY: infra.minio.user,
    MINIO_SECRET_KEY: infra.minio.password,
    JWT_PUBLIC_KEY: secrets.JWT_PUBLIC_KEY,
    CONTEXT_PUBLIC_KEY: secrets.CONTEXT_PUBLIC_KEY,
    ...env,
  };

  await assertPortsFree(profile, [
    p.gatewayPort,
    ...SERVICES.map((_, i) => p.basePort + i + 1),
    ...(simulator ? [p.simPort] : []),
  ]);
  const launched = new Map();

  function launch(name, cwd, extraEnv, nodeFlags = PRODUCT_NODE_FLAGS) {
    const log = join(LOG_DIR, `${profile}-${name}.log`);
    const spawnChild = () => {
      const out = openSync(log, 'a');
      const child = spawn(process.execPath, [...nodeFlags, 'dist/main.js'], {
        cwd: join(ROOT, cwd),
        env: { ...PRODUCT_MALLOC_ENV, ...process.env, ...common, ...extraEnv },
        stdio: ['ignore', out, out],
      });
      children.push({ name, child });
      return child;
    };
    const supervisor = supervise({
      name,
      start: spawnChild,
      enabled: supervised,
      log: report,
      onRestart: (child, attempt) =>
        waitReady(name, readyUrl(name), child, log).then(
          () => report(`${name} is running again (attempt ${attempt})`),
          () => undefined, // it died again: the supervisor reports that
        ),
    });
    launched.set(name, { cwd, extraEnv, log, supervisor });
    return { child: supervisor.start(), log };
  }

  const readyUrl = (name) =>
    name === 'gateway'
      ? `http://127.0.0.1:${p.gatewayPort}/readyz`
      : name === 'provider-sim'
        ? `http://127.0.0.1:${p.simPort}/healthz`
        : `${urls[name]}/readyz`;

  /**
   * Kills one process at once (SIGKILL: no graceful shutdown), as a crash would. Meant, so
   * the supervisor does not restart it: `restart()` brings it back.
   */
  const kill = (name) => launched.get(name).supervisor.kill('SIGKILL');

  /** Starts a killed process again with the same settings and waits until it is ready. */
  const restart = async (name) => {
    const { supervisor, log } = launched.get(name);
    await supervisor.kill('SIGKILL');
    await waitReady(name, readyUrl(name), supervisor.start(), log);
  };

  /** The process ids, for measuring memory. */
  const pids = () =>
    Object.fromEntries([...launched].map(([name, { supervisor }]) => [name, supervisor.child.pid]));

  const stop = async () => {
    for (const { supervisor } of launched.values()) supervisor.stop();
    await Promise.all(
      children.reverse().map(
        ({ child }) =>
          new Promise((resolve) => {
            // Exited already (a crash test may have killed it with a signal).
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };

  try {
    let providerUrl = env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
    // The one private origin a workspace's saved base URL may name: the simulator's, exactly.
    const allowedProviderOrigins = simulator ? `http://127.0.0.1:${p.simPort}` : '';
    if (simulator) {
      // Not the product: Node's defaults, as before.
      const { child, log } = launch(
        'provider-sim',
        'tools/provider-sim',
        { PORT: String(p.simPort) },
        [],
      );
      await waitReady('provider-sim', `http://127.0.0.1:${p.simPort}/healthz`, child, log);
      providerUrl = `http://127.0.0.1:${p.simPort}/v1`;
    }
    const started = SERVICES.map((name, i) => {
      const { child, log } = launch(name, `services/${name}`, {
        PORT: String(p.basePort + i + 1),
        MONGO_URL: `mongodb://${infra.ferret.host}:${infra.ferret.port}/${db(name)}`,
        MINIO_BUCKET: bucket(name),
        OPENAI_BASE_URL: providerUrl,
        // The workspace export reads the generated images where the generation service keeps
        // them: this stack's bucket of it, not the default name.
        ...(name === 'content' ? { GENERATION_BUCKET: bucket('generation') } : {}),
        ...(name === 'workspace' || name === 'generation'
          ? { PROVIDER_URL_ALLOWED_ORIGINS: allowedProviderOrigins }
          : {}),
        ...(name === 'auth'
          ? {
              JWT_PRIVATE_KEY: secrets.JWT_PRIVATE_KEY,
              SUPERADMIN_USERNAME: secrets.SUPERADMIN_USERNAME,
              SUPERADMIN_EMAIL: secrets.SUPERADMIN_EMAIL,
              SUPERADMIN_PASSWORD: secrets.SUPERADMIN_PASSWORD,
              // Tests and load runs sign many users in from one address (127.0.0.1).
              ...(profile === 'dev' ? {} : { RATE_LIMIT_MAX_PER_IP: '10000' }),
            }
          : {}),
        ...(name === 'workspace'
          ? {
              SETTINGS_ENCRYPTION_KEY: secrets.SETTINGS_ENCRYPTION_KEY,
            }
          : {}),
      });
      return waitReady(name, `${urls[name]}/readyz`, child, log);
    });
    await Promise.all(started);
    const gateway = launch('gateway', 'gateway', {
      PORT: String(p.gatewayPort),
      STATIC_DIR: join(ROOT, 'frontends'),
      CONTEXT_PRIVATE_KEY: secrets.CONTEXT_PRIVATE_KEY,
      ...Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_SERVICE_URL`, urls[s]])),
    });
    const gatewayUrl = `http://127.0.0.1:${p.gatewayPort}`;
    await waitReady('gateway', `${gatewayUrl}/readyz`, gateway.child, gateway.log);
    return {
      url: gatewayUrl,
      services: urls,
      providerUrl,
      simulatorUrl: simulator ? `http://127.0.0.1:${p.simPort}` : undefined,
      superAdmin: { username: secrets.SUPERADMIN_USERNAME, password: secrets.SUPERADMIN_PASSWORD },
      secretsCreated: secrets.created,
      databases: SERVICES.map(db),
      kill,
      restart,
      pids,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Drops a stack's databases (`stack.databases`) on FerretDB; best effort (a database left
 * behind is named after its stack's `dbSuffix`).
 * @param {string[]} names
 */
export async function dropDatabases(names, infra = infraSettings()) {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const { MongoClient } = require(
    require.resolve('mongodb', { paths: [join(ROOT, 'services/prompt')] }),
  );
  const client = new MongoClient(`mongodb://${infra.ferret.host}:${infra.ferret.port}`);
  try {
    await client.connect();
    for (const name of names)
      await client
        .db(name)
        .dropDatabase()
        .catch(() => undefined);
  } catch {
    /* the databases stay */
  } finally {
    await client.close().catch(() => undefined);
  }
}
