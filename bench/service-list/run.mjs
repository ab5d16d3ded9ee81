#!/usr/bin/env node
// Benchmark of a service list route (issue 8): the prompt service's GET /api/prompts, called
// straight (with a signed context, as the gateway forwards it), against raw node:http plus
// the native MongoDB driver doing the same reads by _id on the same database (raw.mjs).
//
//   node bench/service-list/run.mjs      (or: BENCH_ONLY=service-list npm run bench)
//
// The prompt service runs from dist/ in its own process, on a fresh database and a RabbitMQ
// vhost of this run alone; BENCH_PROMPTS (20) prompts are created through its API in one
// workspace (a quarter public, one the default). Both servers must answer the same JSON.
// Then autocannon, BENCH_CONNECTIONS (16) connections, BENCH_DURATION (5) s per run,
// BENCH_ROUNDS (5) rounds, the order alternating: requests/s of each and their ratio.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../../infra/lib/paths.mjs';
import { infraSettings } from '../../infra/lib/servers.mjs';
import { freePort, launch, stopProc, waitReady } from '../lib/proc.mjs';
import { buildWorkspaces, emit, fmt, log, median, privateVhost, row } from '../lib/report.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 20);
const WS = 7;

const pem = (key) =>
  key.export(
    key.type === 'private' ? { type: 'pkcs8', format: 'pem' } : { type: 'spki', format: 'pem' },
  );

function cannon(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION }, (err, r) => {
      if (err) return reject(err);
      resolve({
        rps: r['2xx'] / (r.duration || DURATION),
        bad: r.non2xx + r.errors + r.timeouts,
        p50: r.latency.p50,
      });
    });
  });
}

async function main() {
  log(
    'service list benchmark: GET /api/prompts (prompt service) vs raw node:http + mongodb driver',
  );
  await buildWorkspaces(ROOT, ['@aict/contracts', '@aict/service-kit', '@aict/prompt-service']);
  const { signContext } = require('@aict/service-kit');
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const infra = infraSettings();
  const db = `aictbench_list_${randomBytes(3).toString('hex')}_prompt`;
  const mongoUrl = `mongodb://${infra.ferret.host}:${infra.ferret.port}/${db}`;
  const vhost = await privateVhost('list');
  const procs = [];
  try {
    const servicePort = await freePort();
    const service = launch(
      'list-prompt',
      join(ROOT, 'services/prompt/dist/main.js'),
      {
        PORT: String(servicePort),
        MONGO_URL: mongoUrl,
        AMQP_URL: vhost.url,
        MINIO_ENDPOINT: `http://${infra.minio.host}:${infra.minio.port}`,
        MINIO_ACCESS_KEY: infra.minio.user,
        MINIO_SECRET_KEY: infra.minio.password,
        MINIO_BUCKET: `aictbench-list-${randomBytes(3).toString('hex')}`,
        CONTEXT_PUBLIC_KEY: pem(keys.publicKey),
      },
      join(ROOT, 'services/prompt'),
    );
    procs.push(service);
    const serviceUrl = `http://127.0.0.1:${servicePort}`;
    await waitReady(service, `${serviceUrl}/readyz`);

    // Only a super admin publishes (isPublic) a prompt; the list is read as the workspace admin.
    const context = (sa = false) =>
      signContext(
        keys.privateKey,
        {
          uid: 'benchuser',
          sa,
          roles: { [WS]: 'admin' },
          ws: WS,
          role: 'admin',
          rid: 'bench',
          ip: '127.0.0.1',
        },
        // Services refuse contexts that live longer than 5 minutes: one per run, fresh.
        300,
      );
    for (let i = 0; i < PROMPTS; i++) {
      const res = await fetch(`${serviceUrl}/api/prompts?workspaceId=${WS}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-aict-context': context(i % 4 === 0),
          'x-workspace-id': String(WS),
        },
        body: JSON.stringify({
          name: `Prompt ${i + 1}`,
          description: `A prompt for the benchmark, number ${i + 1}`,
          template: `Write about {topic} for {audience}, variant ${i + 1}.`,
          category: 'Marketing',
          contentType: 'text',
          model: 'gpt-4o',
          isPublic: i % 4 === 0,
          isDefault: i === 3,
          workspaceId: WS,
        }),
      });
      if (res.status !== 201)
        throw new Error(`creating a prompt answered ${res.status}: ${await res.text()}`);
    }

    const rawPort = await freePort();
    const raw = launch('list-raw', join(ROOT, 'bench/service-list/raw.mjs'), {
      PORT: String(rawPort),
      MONGO_URL: mongoUrl,
    });
    procs.push(raw);
    const rawUrl = `http://127.0.0.1:${rawPort}`;
    await waitReady(raw, `${rawUrl}/api/prompts?workspaceId=${WS}`);

    const path = `/api/prompts?workspaceId=${WS}`;
    const headers = { 'x-aict-context': context(), 'x-workspace-id': String(WS) };
    const [a, b] = await Promise.all([
      fetch(`${serviceUrl}${path}`, { headers }).then((r) => r.text()),
      fetch(`${rawUrl}${path}`).then((r) => r.text()),
    ]);
    if (a !== b)
      throw new Error(
        `the two servers answer differently:\nservice ${a.slice(0, 300)}\nraw     ${b.slice(0, 300)}`,
      );
    log(`  both answer the same ${JSON.parse(a).length} prompts (${a.length} bytes)`);

    // A fresh signed context for each run (a run is far shorter than the context's 5 minutes).
    const target = (which) =>
      which === 'service'
        ? [`${serviceUrl}${path}`, { ...headers, 'x-aict-context': context() }]
        : [`${rawUrl}${path}`, {}];
    for (const which of ['service', 'raw']) await cannon(...target(which)); // warm-up
    log(`  ${ROUNDS} rounds, ${CONNECTIONS} connections, ${DURATION} s per run`);
    log('  round  service req/s  raw req/s  ratio  service p50 ms  raw p50 ms');
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const r = {};
      for (const which of round % 2 ? ['service', 'raw'] : ['raw', 'service']) {
        r[which] = await cannon(...target(which));
        if (r[which].bad) log(`  ! ${which}: ${r[which].bad} non-2xx answers or errors`);
      }
      const x = {
        service: r.service.rps,
        raw: r.raw.rps,
        ratio: r.service.rps / r.raw.rps,
        sp50: r.service.p50,
        rp50: r.raw.p50,
      };
      rounds.push(x);
      log(
        `  ${String(round).padStart(5)}  ${fmt(x.service).padStart(13)}  ${fmt(x.raw).padStart(9)}  ${fmt(x.ratio, 2).padStart(5)}  ${fmt(x.sp50, 1).padStart(14)}  ${fmt(x.rp50, 1).padStart(10)}`,
      );
    }
    const m = (k) => median(rounds.map((r) => r[k]));
    emit([
      row({
        measure:
          'GET /api/prompts (prompt service, signed context) ÷ raw node:http + mongodb driver, requests/s',
        value: m('ratio'),
        op: '>=',
        target: 0.5,
        unit: 'x',
        detail: `${fmt(m('service'))} vs ${fmt(m('raw'))} req/s at ${CONNECTIONS} connections; same 9 reads by _id on FerretDB`,
      }),
    ]);
  } finally {
    await Promise.all(procs.map(stopProc));
    await vhost.drop();
    const { MongoClient } = require(
      require.resolve('mongodb', { paths: [join(ROOT, 'services/prompt')] }),
    );
    const client = new MongoClient(mongoUrl);
    await client
      .connect()
      .then(() => client.db().dropDatabase())
      .catch(() => undefined);
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`service list benchmark failed: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
