#!/usr/bin/env node
// Benchmark of the gateway (issue 4): an authenticated GET /api/user through the gateway
// against the same GET straight to the service, with the same client (autocannon), the
// same concurrency and duration, several rounds, the order alternating each round.
//
//   npm run bench -w @aict/bench            (or: node bench/gateway/run.mjs)
//
// In one run it builds and starts, on loopback, each in its own process: the auth service
// (its real GET /api/user: two reads by _id on FerretDB) and the gateway (dist/), on a
// RabbitMQ vhost of its own. The memberships snapshot the gateway loads at start-up is
// served from here (the workspace service is not needed for this call). When the auth
// service cannot start or sign up a user, a stand-in service (upstream.mjs) answers instead,
// and this script serves both snapshots and signs the session itself; the output says which.
//
// Two phases, each measured on both paths:
//   throughput  BENCH_CONNECTIONS connections (default 32): requests/s and their ratio;
//   latency     1 connection, so no request waits behind another: the median latency of
//               each path and what the gateway adds.
// Medians are over the rounds. Settings: BENCH_ROUNDS (5), BENCH_DURATION (seconds, 5),
// BENCH_CONNECTIONS (32), BENCH_LOG_LEVEL (warn: no access log line per request),
// BENCH_UPSTREAM=auth|standin (auth, with the stand-in as fallback), BENCH_SKIP_BUILD=1.
// Ends with its rows of the suite's table (bench/run.mjs reads them from BENCH_RESULT_FILE).
import { execFile, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { LOG_DIR, ROOT } from '../../infra/lib/paths.mjs';
import { emit, row } from '../lib/report.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const execFileP = promisify(execFile);

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** How long both processes' idle CPU is read (no requests): BENCH_IDLE_SECONDS (3). */
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 3) * 1000;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const WANT = process.env.BENCH_UPSTREAM ?? 'auth';
const AMQP_BASE = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672/';
const MONGO_BASE = process.env.BENCH_MONGO_URL ?? 'mongodb://127.0.0.1:27017';

const children = [];
const cleanups = [];

function log(line = '') {
  process.stdout.write(`${line}\n`);
}

function pem(key) {
  return key
    .export(
      key.type === 'private' ? { type: 'pkcs8', format: 'pem' } : { type: 'spki', format: 'pem' },
    )
    .toString();
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function build() {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  const workspaces = [
    '@aict/contracts',
    '@aict/service-kit',
    '@aict/auth-service',
    '@aict/gateway',
  ];
  for (const w of workspaces) {
    try {
      await execFileP('npm', ['run', 'build', '--silent', '-w', w], { cwd: ROOT });
    } catch (err) {
      if (w === '@aict/auth-service') {
        log(
          `  (the auth service does not build: ${
            String(err.stderr ?? err.message)
              .trim()
              .split('\n')[0]
          })`,
        );
        continue;
      }
      throw new Error(`build of ${w} failed: ${err.stderr ?? err.message}`);
    }
  }
}

/** A vhost of this run alone (request/reply queues are shared by name within a vhost). */
async function privateVhost() {
  const vhost = `aict-bench-gw-${randomBytes(3).toString('hex')}`;
  try {
    await execFileP('rabbitmqctl', ['add_vhost', vhost]);
    await execFileP('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*']);
    cleanups.push(() => execFileP('rabbitmqctl', ['delete_vhost', vhost]).catch(() => undefined));
    return `${AMQP_BASE.replace(/\/$/, '')}/${vhost}`;
  } catch {
    log('  (rabbitmqctl unavailable: using vhost aict-test, shared with the tests)');
    return `${AMQP_BASE.replace(/\/$/, '')}/aict-test`;
  }
}

function launch(name, script, env) {
  mkdirSync(LOG_DIR, { recursive: true });
  const file = join(LOG_DIR, `bench-gateway-${name}.log`);
  const out = openSync(file, 'w');
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', out, out],
  });
  children.push(child);
  return { child, file };
}

async function waitReady(name, url, { child, file }, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `${name} exited (${child.exitCode}); its log:\n${readFileSync(file, 'utf8').slice(-2000)}`,
      );
    }
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(`${name} not ready at ${url} within ${timeoutMs / 1000} s; its log: ${file}`);
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function shutdown() {
  await Promise.all(children.splice(0).reverse().map(stop));
  for (const clean of cleanups.splice(0).reverse()) await clean();
}

/** The auth service, and a user signed up through the gateway. */
async function startAuth(keys, amqpUrl) {
  const db = `aictbench_gw_${randomBytes(3).toString('hex')}_auth`;
  const port = await freePort();
  const proc = launch('auth', 'services/auth/dist/main.js', {
    PORT: String(port),
    MONGO_URL: `${MONGO_BASE}/${db}`,
    AMQP_URL: amqpUrl,
    CONTEXT_PUBLIC_KEY: pem(keys.context.publicKey),
    JWT_PRIVATE_KEY: pem(keys.jwt.privateKey),
  });
  cleanups.push(async () => {
    const mongoose = require('mongoose');
    const conn = await mongoose.createConnection(`${MONGO_BASE}/${db}`).asPromise();
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady('auth service', `${url}/readyz`, proc);
  return url;
}

async function signUp(gatewayUrl) {
  const name = `bench${randomBytes(4).toString('hex')}`;
  const res = await fetch(`${gatewayUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: name,
      email: `${name}@example.com`,
      password: 'bench-password-1',
    }),
  });
  const cookie = (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith('aict_session='));
  if (res.status !== 201 || !cookie)
    throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const user = await res.json();
  return { uid: user.id, token: cookie.split(';')[0].slice('aict_session='.length) };
}

/** CPU time (ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 10 ms ticks
  } catch {
    return NaN;
  }
}

async function measure(url, headers, connections, seconds, pids = {}) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const result = await run(url, headers, connections, seconds);
  result.cpu = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [
      name,
      ((cpuMs(pid) - before[name]) * 1000) / result.count,
    ]),
  );
  return result;
}

function run(url, headers, connections, seconds) {
  return new Promise((resolve, reject) => {
    const times = [];
    const instance = autocannon(
      { url, headers, connections, duration: seconds, pipelining: 1 },
      (err, result) => {
        if (err) return reject(err);
        resolve({
          count: result['2xx'],
          rps: result['2xx'] / (result.duration || seconds),
          bad: result.non2xx + result.errors + result.timeouts,
          p50: median(times),
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
}

function median(values) {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const pad = (s, n) => String(s).padStart(n);

async function phase(title, connections, targets) {
  log(`\n${title}: ${connections} connection${connections > 1 ? 's' : ''}, ${DURATION} s per run`);
  log(
    `  ${pad('round', 5)} ${pad('direct req/s', 13)} ${pad('gateway req/s', 14)} ${pad('ratio', 6)} ${pad('direct p50 ms', 14)} ${pad('gateway p50 ms', 15)} ${pad('added ms', 9)}`,
  );
  const rows = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 ? ['direct', 'gateway'] : ['gateway', 'direct'];
    const r = {};
    for (const which of order) {
      const t = targets[which]();
      r[which] = await measure(t.url, t.headers, connections, DURATION, t.pids);
      if (r[which].bad > 0)
        log(`  ! ${which}: ${r[which].bad} non-2xx answers or errors in round ${round}`);
    }
    const row = {
      direct: r.direct.rps,
      gateway: r.gateway.rps,
      ratio: r.gateway.rps / r.direct.rps,
      directP50: r.direct.p50,
      gatewayP50: r.gateway.p50,
      added: r.gateway.p50 - r.direct.p50,
      cpuService: r.direct.cpu.service,
      cpuGateway: r.gateway.cpu.gateway,
    };
    rows.push(row);
    log(
      `  ${pad(round, 5)} ${pad(fmt(row.direct), 13)} ${pad(fmt(row.gateway), 14)} ${pad(fmt(row.ratio, 2), 6)} ${pad(fmt(row.directP50, 3), 14)} ${pad(fmt(row.gatewayP50, 3), 15)} ${pad(fmt(row.added, 3), 9)}`,
    );
  }
  const m = (k) => median(rows.map((row) => row[k]));
  const med = {
    direct: m('direct'),
    gateway: m('gateway'),
    ratio: m('ratio'),
    directP50: m('directP50'),
    gatewayP50: m('gatewayP50'),
    added: m('added'),
    cpuService: m('cpuService'),
    cpuGateway: m('cpuGateway'),
  };
  log(
    `  ${pad('median', 5)} ${pad(fmt(med.direct), 13)} ${pad(fmt(med.gateway), 14)} ${pad(fmt(med.ratio, 2), 6)} ${pad(fmt(med.directP50, 3), 14)} ${pad(fmt(med.gatewayP50, 3), 15)} ${pad(fmt(med.added, 3), 9)}`,
  );
  log(
    `  CPU per request (medians): service ${fmt(med.cpuService)} µs, gateway ${fmt(med.cpuGateway)} µs`,
  );

  return med;
}

async function main() {
  log('gateway benchmark: GET /api/user through the gateway vs straight to the service');
  log('  building contracts, service-kit, auth service, gateway ...');
  await build();
  const { createBus, createLogger, signContext } = require('@aict/service-kit');
  const contracts = require('@aict/contracts');
  const keys = {
    jwt: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    context: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  };
  const amqpUrl = await privateVhost();
  const busLogger = createLogger('bench', { level: 'warn' });

  // What the workspace service would answer at the gateway's start-up (and, for the
  // stand-in, what the auth service would): this run's user belongs to no workspace.
  const snapshot = { users: [], revokedSessions: [] };
  const workspaceBus = await createBus({ url: amqpUrl, service: 'workspace', logger: busLogger });
  cleanups.push(() => workspaceBus.close());
  await workspaceBus.serve(
    contracts.MEMBERSHIPS_SNAPSHOT_RPC,
    contracts.MembershipsSnapshotRequest.nullish(),
    () => ({ memberships: [] }),
  );

  let upstreamUrl;
  let upstreamName;
  let upstreamPid;
  if (WANT === 'auth') {
    try {
      upstreamUrl = await startAuth(keys, amqpUrl);
      upstreamPid = children.at(-1).pid;
      upstreamName =
        'the auth service (GET /api/user: the user and their roles, two reads by _id on FerretDB)';
    } catch (err) {
      log(
        `  (the auth service could not start, the stand-in answers instead: ${err.message.split('\n')[0]})`,
      );
      await Promise.all(children.splice(0).map(stop));
    }
  }
  let session;
  if (!upstreamUrl) {
    const port = await freePort();
    const proc = launch('standin', 'bench/gateway/upstream.mjs', {
      PORT: String(port),
      CONTEXT_PUBLIC_KEY: pem(keys.context.publicKey),
    });
    upstreamUrl = `http://127.0.0.1:${port}`;
    upstreamPid = proc.child.pid;
    await waitReady('stand-in service', `${upstreamUrl}/readyz`, proc);
    upstreamName = 'a stand-in service (service-kit app, context verified, answer from memory)';
    const authBus = await createBus({ url: amqpUrl, service: 'auth', logger: busLogger });
    cleanups.push(() => authBus.close());
    snapshot.users.push({ id: 'bench-user', tokenVersion: 0, isSuperAdmin: false });
    await authBus.serve(
      contracts.IDENTITY_SNAPSHOT_RPC,
      contracts.IdentitySnapshotRequest.nullish(),
      () => snapshot,
    );
    const jwt = require('jsonwebtoken');
    session = {
      uid: 'bench-user',
      token: jwt.sign(
        { sub: 'bench-user', sid: randomBytes(8).toString('hex'), tv: 0 },
        keys.jwt.privateKey,
        {
          algorithm: 'ES256',
          issuer: contracts.TOKEN_ISSUER,
          audience: contracts.TOKEN_AUDIENCE,
          expiresIn: 3600,
        },
      ),
    };
  }

  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const services = Object.fromEntries(
    ['AUTH', 'WORKSPACE', 'PROMPT', 'CONTENT', 'GENERATION'].map((s) => [
      `${s}_SERVICE_URL`,
      upstreamUrl,
    ]),
  );
  const gw = launch('gateway', 'gateway/dist/main.js', {
    PORT: String(gatewayPort),
    AMQP_URL: amqpUrl,
    STATIC_DIR: join(ROOT, 'frontends'),
    JWT_PUBLIC_KEY: pem(keys.jwt.publicKey),
    CONTEXT_PRIVATE_KEY: pem(keys.context.privateKey),
    ...services,
  });
  await waitReady('gateway', `${gatewayUrl}/readyz`, gw);
  session ??= await signUp(gatewayUrl);

  const cookie = `aict_session=${session.token}`;
  // What the gateway forwards for this caller (the service checks it on every request).
  const directContext = () =>
    signContext(
      keys.context.privateKey,
      {
        uid: session.uid,
        sa: false,
        roles: {},
        ws: null,
        role: null,
        rid: 'bench',
        ip: '127.0.0.1',
      },
      DURATION + 60, // valid for a whole run
    );
  const targets = {
    gateway: () => ({
      url: `${gatewayUrl}/api/user`,
      headers: { cookie },
      pids: { gateway: gw.child.pid, service: upstreamPid },
    }),
    direct: () => ({
      url: `${upstreamUrl}/api/user`,
      headers: { cookie, 'x-aict-context': directContext() },
      pids: { service: upstreamPid },
    }),
  };

  // Both paths answer the same thing before anything is measured.
  const viaGateway = await fetch(targets.gateway().url, { headers: targets.gateway().headers });
  const direct = await fetch(targets.direct().url, { headers: targets.direct().headers });
  const [a, b] = [await viaGateway.text(), await direct.text()];
  if (viaGateway.status !== 200 || direct.status !== 200 || a !== b) {
    throw new Error(
      `the two paths differ: gateway ${viaGateway.status} ${a} / direct ${direct.status} ${b}`,
    );
  }

  log(`  upstream: ${upstreamName}`);
  const os = await import('node:os');
  log(
    `  client: autocannon in this process; ${ROUNDS} rounds, order alternating; log level ${LOG_LEVEL}`,
  );
  log(
    `  machine: ${os.cpus().length} CPUs shared by client, gateway and service (and anything else running); load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const idle = { gateway: cpuMs(gw.child.pid), service: cpuMs(upstreamPid) };
  await sleep(IDLE_MS);
  log(
    `  idle CPU (${IDLE_MS / 1000} s, no requests): gateway ${fmt((cpuMs(gw.child.pid) - idle.gateway) / (IDLE_MS / 1000))} ms/s, service ${fmt((cpuMs(upstreamPid) - idle.service) / (IDLE_MS / 1000))} ms/s`,
  );
  for (const which of ['direct', 'gateway'])
    await run(targets[which]().url, targets[which]().headers, CONNECTIONS, 2); // warm-up

  const throughput = await phase('throughput', CONNECTIONS, targets);
  const latency = await phase('latency', 1, targets);

  log('\nsummary (medians over rounds)');
  log(
    `  requests/s   direct ${fmt(throughput.direct)}   gateway ${fmt(throughput.gateway)}   ratio ${fmt(throughput.ratio, 2)}   (target ≥ 0.50) ${throughput.ratio >= 0.5 ? 'met' : 'NOT met'}`,
  );
  log(
    `  median ms    direct ${fmt(latency.directP50, 3)}   gateway ${fmt(latency.gatewayP50, 3)}   added ${fmt(latency.added, 3)}   (target ≤ 1 ms) ${latency.added <= 1 ? 'met' : 'NOT met'}`,
  );
  log(
    `  CPU per request: service ${fmt(throughput.cpuService)} µs, gateway ${fmt(throughput.cpuGateway)} µs (throughput phase; /proc, 10 ms ticks)`,
  );
  log(
    `  load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  log(
    `  at ${CONNECTIONS} connections the medians are direct ${fmt(throughput.directP50, 3)} ms, gateway ${fmt(throughput.gatewayP50, 3)} ms (queueing: latency ≈ connections ÷ requests/s)`,
  );
  emit([
    row({
      measure: 'authenticated GET /api/user: gateway ÷ straight to the service, requests/s',
      value: throughput.ratio,
      op: '>=',
      target: 0.8,
      unit: 'x',
      detail: `${fmt(throughput.gateway)} vs ${fmt(throughput.direct)} req/s at ${CONNECTIONS} connections`,
    }),
    row({
      measure: 'authenticated GET /api/user: median added by the gateway',
      value: latency.added,
      op: '<=',
      target: 0.5,
      unit: ' ms',
      digits: 3,
      detail: `${fmt(latency.gatewayP50, 3)} vs ${fmt(latency.directP50, 3)} ms at 1 connection`,
    }),
  ]);
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  console.error(`gateway benchmark failed: ${err.message}`);
} finally {
  await shutdown();
}
process.exit(failed ? 1 : 0);
