// The three local servers: FerretDB (documents), MinIO (files), RabbitMQ (messages).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureFerretDB, ensureMinio } from './binaries.mjs';
import { withLock } from './lock.mjs';
import { CACHE_DIR, DATA_DIR } from './paths.mjs';
import {
  InfraError,
  execFileP,
  httpOk,
  logFile,
  startDetached,
  stopDetached,
  tcpOpen,
  waitFor,
} from './processes.mjs';

export function infraSettings(env = process.env) {
  const [ferretHost, ferretPort] = (env.FERRETDB_LISTEN ?? '127.0.0.1:27017').split(':');
  const [minioHost, minioPort] = (env.MINIO_ADDRESS ?? '127.0.0.1:9000').split(':');
  return {
    ferret: {
      host: ferretHost,
      port: Number(ferretPort),
      postgresUrl: env.FERRETDB_POSTGRESQL_URL,
    },
    minio: {
      host: minioHost,
      port: Number(minioPort),
      user: env.MINIO_ACCESS_KEY ?? 'aictminio',
      password: env.MINIO_SECRET_KEY ?? 'aictminio-secret',
    },
    rabbit: { host: '127.0.0.1', port: 5672, vhosts: ['aict', 'aict-test', 'aict-bench'] },
  };
}

export async function upFerretDB(s) {
  const { host, port, postgresUrl } = s.ferret;
  if (await tcpOpen(host, port)) return 'already running';
  const bin = await ensureFerretDB().catch((e) => {
    throw new InfraError('FerretDB', `could not build the launcher: ${e.message}`);
  });
  const dir = join(DATA_DIR, 'ferretdb');
  mkdirSync(dir, { recursive: true });
  const args = ['-listen', `${host}:${port}`, '-sqlite-dir', dir];
  if (postgresUrl) args.push('-postgresql-url', postgresUrl);
  startDetached('ferretdb', bin, args);
  if (!(await waitFor(() => tcpOpen(host, port), { timeoutMs: 30_000 })))
    throw new InfraError(
      'FerretDB',
      `not listening on ${host}:${port} after 30 s`,
      logFile('ferretdb'),
    );
  return 'started';
}

export async function upMinio(s) {
  const { host, port, user, password } = s.minio;
  const ready = `http://${host}:${port}/minio/health/ready`;
  if (await httpOk(ready)) return 'already running';
  if (await tcpOpen(host, port))
    throw new InfraError('MinIO', `port ${port} is taken by something that is not a ready MinIO`);
  if (password.length < 8)
    throw new InfraError('MinIO', 'MINIO_SECRET_KEY must be at least 8 characters');
  const bin = await ensureMinio().catch((e) => {
    throw new InfraError('MinIO', `could not build it: ${e.message}`);
  });
  const dir = join(DATA_DIR, 'minio');
  mkdirSync(dir, { recursive: true });
  startDetached('minio', bin, ['server', dir, '--address', `${host}:${port}`, '--quiet'], {
    MINIO_ROOT_USER: user,
    MINIO_ROOT_PASSWORD: password,
    MINIO_BROWSER: 'off',
    MINIO_UPDATE: 'off',
  });
  if (!(await waitFor(() => httpOk(ready), { timeoutMs: 60_000 })))
    throw new InfraError('MinIO', `${ready} did not answer within 60 s`, logFile('minio'));
  return 'started';
}

async function rabbitctl(args) {
  const { stdout } = await execFileP('rabbitmqctl', ['-q', ...args], { timeout: 60_000 });
  return stdout;
}

export async function upRabbit(s) {
  const { host, port, vhosts } = s.rabbit;
  let how = 'already running';
  if (!(await tcpOpen(host, port))) {
    if (!existsSync('/usr/sbin/rabbitmq-server')) {
      process.stdout.write('infra: installing Debian package rabbitmq-server...\n');
      try {
        await execFileP('apt-get', ['update'], { timeout: 300_000 });
        await execFileP('apt-get', ['install', '-y', 'rabbitmq-server'], {
          timeout: 600_000,
          env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        });
      } catch (e) {
        throw new InfraError('RabbitMQ', `could not install rabbitmq-server: ${e.message}`);
      }
    }
    try {
      await execFileP('rabbitmq-server', ['-detached'], { timeout: 60_000 });
    } catch (e) {
      throw new InfraError('RabbitMQ', `rabbitmq-server -detached failed: ${e.message}`);
    }
    if (!(await waitFor(() => tcpOpen(host, port), { timeoutMs: 120_000, intervalMs: 500 })))
      throw new InfraError(
        'RabbitMQ',
        `not listening on ${host}:${port} after 120 s`,
        '/var/log/rabbitmq/rabbit@' + (process.env.HOSTNAME ?? 'localhost') + '.log',
      );
    how = 'started';
  }
  try {
    await rabbitctl(['await_startup']);
    const existing = (await rabbitctl(['list_vhosts', 'name'])).split('\n').map((l) => l.trim());
    for (const vhost of vhosts) {
      if (existing.includes(vhost)) continue;
      await rabbitctl(['add_vhost', vhost]);
      await rabbitctl(['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*']);
    }
  } catch (e) {
    throw new InfraError('RabbitMQ', `could not prepare vhosts ${vhosts.join(', ')}: ${e.message}`);
  }
  return how;
}

/**
 * Brings up every part in parallel; throws one error naming each part that failed. One
 * bring-up at a time on the machine (the ports are the machine's): two at once both saw
 * MinIO not ready yet and started it twice on the same data directory.
 */
export async function infraUp(env = process.env) {
  mkdirSync(CACHE_DIR, { recursive: true });
  return withLock(join(CACHE_DIR, 'infra-up.lock'), () => bringUp(env), {
    what: 'another infra bring-up to finish',
  });
}

async function bringUp(env) {
  const s = infraSettings(env);
  const parts = { FerretDB: upFerretDB(s), MinIO: upMinio(s), RabbitMQ: upRabbit(s) };
  const results = await Promise.allSettled(Object.values(parts));
  const names = Object.keys(parts);
  const failures = results
    .map((r, i) => (r.status === 'rejected' ? (r.reason.message ?? `${names[i]} failed`) : null))
    .filter(Boolean);
  if (failures.length) throw new Error(failures.join('\n\n'));
  return Object.fromEntries(names.map((n, i) => [n, results[i].value]));
}

/** Stops what infraUp started (the system's RabbitMQ is left alone). */
export async function infraDown() {
  return { FerretDB: await stopDetached('ferretdb'), MinIO: await stopDetached('minio') };
}
