// Private copies of the three local servers for tests that stop and start them
// (e2e/infra-fault.e2e.ts): a FerretDB, a MinIO and a RabbitMQ node on their own ports
// and data directories. The shared servers (27017, 9000, 5672) are never touched.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureFerretDB, ensureMinio } from './binaries.mjs';
import { LOG_DIR } from './paths.mjs';
import { execFileP, httpOk, tail, tcpOpen, waitFor } from './processes.mjs';

const RABBIT_BIN = '/usr/lib/rabbitmq/bin';

/**
 * Ports of the private servers: 295xx, used by no other profile and below Linux's ephemeral
 * range (32768–60999), where a client's outgoing connection may hold a port for a while.
 */
export const PRIVATE_PORTS = { ferret: 29517, minio: 29590, rabbit: 29572, rabbitDist: 29573 };

/**
 * Starts a FerretDB, a MinIO and a RabbitMQ node under `dir` (wiped first) and returns
 * `settings` in the shape of `infraSettings()` plus `stop(part)`, `start(part)` and
 * `close()`. A part is 'ferret', 'minio' or 'rabbit'; `stop` ends the process (SIGKILL for
 * FerretDB and MinIO, a crash; `rabbitmqctl stop` for RabbitMQ) and keeps its data.
 */
export async function startPrivateInfra({ dir, ports = PRIVATE_PORTS, name = 'aictfault' }) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(LOG_DIR, { recursive: true });
  const [ferretBin, minioBin] = await Promise.all([ensureFerretDB(), ensureMinio()]);
  const host = '127.0.0.1';
  const minioUser = 'aictminio';
  const minioPassword = 'aictminio-secret';
  const vhost = 'aict-test';
  const node = `${name}@localhost`;
  const rabbitDir = join(dir, 'rabbit');
  for (const sub of ['ferretdb', 'minio', 'rabbit/home', 'rabbit/mnesia', 'rabbit/log'])
    mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(rabbitDir, 'enabled_plugins'), '[].\n');
  writeFileSync(
    join(rabbitDir, 'rabbitmq.conf'),
    `listeners.tcp.default = ${host}:${ports.rabbit}\nloopback_users = none\n`,
  );
  const rabbitEnv = {
    ...process.env,
    HOME: join(rabbitDir, 'home'), // its own Erlang cookie
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_PORT: String(ports.rabbit),
    RABBITMQ_DIST_PORT: String(ports.rabbitDist),
    RABBITMQ_MNESIA_BASE: join(rabbitDir, 'mnesia'),
    RABBITMQ_LOG_BASE: join(rabbitDir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(rabbitDir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: join(rabbitDir, 'rabbitmq.conf'),
  };
  const rabbitctl = (...args) =>
    execFileP(join(RABBIT_BIN, 'rabbitmqctl'), ['-n', node, '-q', ...args], {
      env: rabbitEnv,
      timeout: 60_000,
    });

  const children = new Map();
  const launch = (part, command, args, env) => {
    const log = join(LOG_DIR, `${name}-${part}.log`);
    const child = spawn(command, args, {
      detached: true, // its own process group: RabbitMQ's script starts the Erlang VM
      stdio: ['ignore', openSync(log, 'a'), openSync(log, 'a')],
      env,
    });
    children.set(part, child);
    return log;
  };
  const exited = (part) => {
    const child = children.get(part);
    return !child || child.exitCode !== null || child.signalCode !== null;
  };
  /**
   * Starts a part and waits until `ready()`; fails at once when its process exits. A start
   * that exits early (its port still held, e.g. by the previous run's process) is tried again
   * a few times.
   */
  const startPart = async (part, spawnIt, ready, timeoutMs) => {
    for (let attempt = 1; ; attempt++) {
      const log = spawnIt();
      const ok = await waitFor(async () => exited(part) || (await ready()), { timeoutMs });
      if (ok && !exited(part)) return;
      await killGroup(part);
      if (attempt >= 5 || !ok)
        throw new Error(`private ${part} did not start (${timeoutMs / 1000} s):\n${tail(log)}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  };
  const killGroup = (part) => {
    const child = children.get(part);
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        resolve();
      }
    });
  };

  const parts = {
    ferret: {
      start: () =>
        startPart(
          'ferret',
          () =>
            launch(
              'ferret',
              ferretBin,
              ['-listen', `${host}:${ports.ferret}`, '-sqlite-dir', join(dir, 'ferretdb')],
              process.env,
            ),
          () => tcpOpen(host, ports.ferret),
          30_000,
        ),
      stop: () => killGroup('ferret'),
    },
    minio: {
      start: () =>
        startPart(
          'minio',
          () =>
            launch(
              'minio',
              minioBin,
              ['server', join(dir, 'minio'), '--address', `${host}:${ports.minio}`, '--quiet'],
              {
                ...process.env,
                MINIO_ROOT_USER: minioUser,
                MINIO_ROOT_PASSWORD: minioPassword,
                MINIO_BROWSER: 'off',
                MINIO_UPDATE: 'off',
              },
            ),
          () => httpOk(`http://${host}:${ports.minio}/minio/health/ready`),
          60_000,
        ),
      stop: () => killGroup('minio'),
    },
    rabbit: {
      start: () =>
        startPart(
          'rabbit',
          () => launch('rabbit', join(RABBIT_BIN, 'rabbitmq-server'), [], rabbitEnv),
          () => tcpOpen(host, ports.rabbit),
          120_000,
        ),
      async stop() {
        await rabbitctl('stop').catch(() => undefined);
        await killGroup('rabbit');
      },
    },
  };

  const close = async () => {
    await Promise.all(Object.values(parts).map((p) => p.stop().catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  };
  // Never leave a private server behind, whatever ends this process.
  process.once('exit', () => {
    for (const child of children.values())
      if (child.exitCode === null && child.signalCode === null)
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
  });

  try {
    await Promise.all(Object.values(parts).map((p) => p.start()));
    await rabbitctl('await_startup');
    await rabbitctl('add_vhost', vhost);
    await rabbitctl('set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*');
  } catch (err) {
    await close();
    throw err;
  }

  return {
    settings: {
      ferret: { host, port: ports.ferret },
      minio: { host, port: ports.minio, user: minioUser, password: minioPassword },
      rabbit: { host, port: ports.rabbit, vhosts: [vhost] },
    },
    stop: (part) => parts[part].stop(),
    start: (part) => parts[part].start(),
    rabbitctl,
    close,
  };
}
