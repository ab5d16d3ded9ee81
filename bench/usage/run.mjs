#!/usr/bin/env node
// Benchmark of the usage screen (issue 14): the generation service's GET /api/usage/summary
// of a workspace whose month holds BENCH_USAGE_ENTRIES (100 000) ledger entries, called
// straight (with a signed context, as the gateway forwards it); target p95 ≤ 100 ms.
//
//   node bench/usage/run.mjs      (or: BENCH_ONLY=usage npm run bench)
//
// The service runs from dist/ in its own process, on a fresh database and a RabbitMQ vhost of
// this run alone. The month is seeded straight into the database (far faster than 100k
// generations): the ledger entries, the month tally's slots and its folded sums as the
// service writes them (domain/usage-tally.ts; the last BENCH_USAGE_PENDING (8) slots left
// unfolded, as a lagging fold leaves them), the month counter and a budget, plus another
// workspace's entries beside them. The answer is checked against the seeded sums. Then
// BENCH_REQUESTS (400) requests, BENCH_CONNECTIONS (4) at a time, after 20 to warm up:
// p50/p95 of each. For comparison, the ledger query the summary used to make (the month of
// the workspace, a scan on FerretDB) is timed once with the raw driver.
// BENCH_VERBOSE=1 prints every request's time.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../../infra/lib/paths.mjs';
import { infraSettings } from '../../infra/lib/servers.mjs';
import { freePort, launch, stopProc, waitReady } from '../lib/proc.mjs';
import { buildWorkspaces, emit, fmt, log, privateVhost, row } from '../lib/report.mjs';

const require = createRequire(import.meta.url);

const ENTRIES = Number(process.env.BENCH_USAGE_ENTRIES ?? 100_000);
const PENDING = Number(process.env.BENCH_USAGE_PENDING ?? 8);
const OTHER_ENTRIES = Math.round(ENTRIES / 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const WS = 7;
const OTHER_WS = 8;
const USERS = Array.from({ length: 12 }, (_, i) => `bench-user-${i + 1}`);
const MODELS = ['gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo', 'dall-e-3', 'gpt-image-1'];
const PROMPTS = [null, ...Array.from({ length: 40 }, (_, i) => `bench-prompt-${i + 1}`)];

const pem = (key) =>
  key.export(
    key.type === 'private' ? { type: 'pkcs8', format: 'pem' } : { type: 'spki', format: 'pem' },
  );

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];

/** The i-th ledger entry of a workspace's month (deterministic, spread over its days). */
function entryOf(workspaceId, month, days, i) {
  const day = `${month}-${String((i % days) + 1).padStart(2, '0')}`;
  const model = MODELS[i % MODELS.length];
  const image = model === 'dall-e-3' || model === 'gpt-image-1';
  const startedAt = new Date(`${day}T${String(i % 24).padStart(2, '0')}:00:00.000Z`);
  const costMicros = image ? 40_000 : 1_000 + (i % 997);
  return {
    _id: `bench-${workspaceId}-${i}`,
    workspaceId,
    userId: USERS[i % USERS.length],
    promptId: PROMPTS[i % PROMPTS.length],
    model,
    kind: image ? 'image' : 'text',
    month,
    day,
    startedAt,
    finishedAt: new Date(startedAt.getTime() + 1_500),
    durationMs: 1_500,
    outcome: 'ok',
    inputTokens: image ? 0 : 400,
    outputTokens: image ? 0 : 300,
    images: image ? { count: 1, size: '1024x1024', quality: 'standard' } : null,
    priceVersion: 0,
    price: { inputPerMillion: 0, outputPerMillion: 0, perImage: 0 },
    currency: 'USD',
    estimateMicros: costMicros,
    costMicros,
    reserved: true,
    settled: true,
    tally: { workspace: i + 1 },
  };
}

const emptyTally = () => ({
  upTo: 0,
  byDay: new Map(),
  byUser: new Map(),
  byModel: new Map(),
  byPrompt: new Map(),
});
function addTo(group, key, cost) {
  const r = group.get(key) ?? { key, costMicros: 0, calls: 0 };
  group.set(key, { key, costMicros: r.costMicros + cost, calls: r.calls + 1 });
}
/** As the service stores a tally: groups as lists of { key, costMicros, calls }. */
const stored = (t) => ({
  upTo: t.upTo,
  byDay: [...t.byDay.values()],
  byUser: [...t.byUser.values()],
  byModel: [...t.byModel.values()],
  byPrompt: [...t.byPrompt.values()],
});

/** Ledger, tally slots, folded tally, counter and budget of one workspace's month. */
async function seedMonth(db, workspaceId, month, days, count, pending) {
  const scope = `ws:${workspaceId}:${month}`;
  const folded = emptyTally();
  const all = emptyTally();
  let spent = 0;
  const BATCH = 2_000;
  for (let from = 0; from < count; from += BATCH) {
    const entries = [];
    const slots = [];
    for (let i = from; i < Math.min(count, from + BATCH); i++) {
      const e = entryOf(workspaceId, month, days, i);
      entries.push(e);
      slots.push({
        _id: `tally:${scope}:${i + 1}`,
        entryId: e._id,
        day: e.day,
        userId: e.userId,
        model: e.model,
        promptId: e.promptId,
        costMicros: e.costMicros,
        at: e.finishedAt,
      });
      for (const t of i < count - pending ? [folded, all] : [all]) {
        addTo(t.byDay, e.day, e.costMicros);
        addTo(t.byUser, e.userId, e.costMicros);
        addTo(t.byModel, e.model, e.costMicros);
        addTo(t.byPrompt, e.promptId ?? '', e.costMicros);
      }
      spent += e.costMicros;
    }
    await db.collection('usage_ledger').insertMany(entries, { ordered: false });
    await db.collection('usage_tally_slots').insertMany(slots, { ordered: false });
  }
  folded.upTo = count - pending;
  all.upTo = count;
  const at = new Date();
  const chains = db.collection('usage_chains');
  const tallyChain = `tally:${scope}`;
  const counterChain = `spent:ws:${workspaceId}:${month}`;
  await chains.insertMany([
    { _id: `${tallyChain}@1`, chain: tallyChain, n: 1, value: stored(folded), at },
    { _id: tallyChain, head: 1 },
    { _id: `${counterChain}@1`, chain: counterChain, n: 1, value: { spent }, at },
    { _id: counterChain, head: 1 },
  ]);
  await db
    .collection('usage_limits')
    .insertOne({ _id: `budget:${workspaceId}`, value: spent * 2, at });
  return { spent, all };
}

async function timeRequests(url, headers) {
  const times = [];
  let bad = 0;
  let next = 0;
  const total = REQUESTS + 20;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const t0 = performance.now();
      const res = await fetch(url, { headers: headers() });
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (res.status !== 200) bad++;
      if (process.env.BENCH_VERBOSE) log(`    request ${i + 1}: ${res.status} in ${fmt(ms, 1)} ms`);
      if (i >= 20) times.push(ms);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const sorted = Float64Array.from(times).sort();
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), bad };
}

async function main() {
  log(`usage benchmark: GET /api/usage/summary with ${ENTRIES} ledger entries in the month`);
  await buildWorkspaces(ROOT, ['@aict/contracts', '@aict/service-kit', '@aict/generation-service']);
  const { signContext } = require('@aict/service-kit');
  const { MongoClient } = require(
    require.resolve('mongodb', { paths: [join(ROOT, 'services/generation')] }),
  );
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const infra = infraSettings();
  const dbName = `aictbench_usage_${randomBytes(3).toString('hex')}_generation`;
  const mongoUrl = `mongodb://${infra.ferret.host}:${infra.ferret.port}/${dbName}`;
  const client = new MongoClient(mongoUrl);
  await client.connect();
  const db = client.db();
  const vhost = await privateVhost('usage');
  const procs = [];
  try {
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const days = now.getUTCDate();
    const t0 = performance.now();
    const { spent, all } = await seedMonth(db, WS, month, days, ENTRIES, PENDING);
    await seedMonth(db, OTHER_WS, month, days, OTHER_ENTRIES, 0);
    log(
      `  seeded ${ENTRIES} + ${OTHER_ENTRIES} entries (and their tally slots) in ${fmt((performance.now() - t0) / 1000, 1)} s`,
    );

    const port = await freePort();
    const service = launch(
      'usage-generation',
      join(ROOT, 'services/generation/dist/main.js'),
      {
        PORT: String(port),
        MONGO_URL: mongoUrl,
        AMQP_URL: vhost.url,
        MINIO_ENDPOINT: `http://${infra.minio.host}:${infra.minio.port}`,
        MINIO_ACCESS_KEY: infra.minio.user,
        MINIO_SECRET_KEY: infra.minio.password,
        MINIO_BUCKET: `aictbench-usage-${randomBytes(3).toString('hex')}`,
        CONTEXT_PUBLIC_KEY: pem(keys.publicKey),
      },
      join(ROOT, 'services/generation'),
    );
    procs.push(service);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitReady(service, `${baseUrl}/readyz`);

    // Services refuse contexts that live longer than 5 minutes: a fresh one per request.
    const headers = () => ({
      'x-aict-context': signContext(
        keys.privateKey,
        {
          uid: USERS[0],
          sa: false,
          roles: { [WS]: 'admin' },
          ws: WS,
          role: 'admin',
          rid: 'bench',
          ip: '127.0.0.1',
        },
        300,
      ),
      'x-workspace-id': String(WS),
    });
    const url = `${baseUrl}/api/usage/summary?workspaceId=${WS}`;

    const tFirst = performance.now();
    const res = await fetch(url, { headers: headers() });
    const summary = await res.json();
    log(`  the first summary answered in ${fmt(performance.now() - tFirst)} ms`);
    if (res.status !== 200)
      throw new Error(`the summary answered ${res.status}: ${JSON.stringify(summary)}`);
    const calls = summary.byUser.reduce((s, r) => s + r.calls, 0);
    const cost = summary.byDay.reduce((s, r) => s + r.costMicros, 0);
    if (summary.spentMicros !== spent || calls !== ENTRIES || cost !== spent)
      throw new Error(
        `the summary does not match the seeded month: spent ${summary.spentMicros} vs ${spent}, calls ${calls} vs ${ENTRIES}, by day ${cost}`,
      );
    for (const r of summary.byModel)
      if (r.calls !== all.byModel.get(r.key)?.calls)
        throw new Error(`model ${r.key}: ${r.calls} calls`);
    log(
      `  the summary matches the seeded month (${calls} calls, ${summary.byPrompt.length} prompts, ${summary.byDay.length} days)`,
    );

    const t1 = performance.now();
    const scanned = await db.collection('usage_ledger').find({ workspaceId: WS, month }).toArray();
    const scanMs = performance.now() - t1;
    log(
      `  the ledger query it replaces (raw driver): ${scanned.length} entries in ${fmt(scanMs)} ms`,
    );

    log(`  ${REQUESTS} requests, ${CONNECTIONS} at a time`);
    const r = await timeRequests(url, headers);
    if (r.bad) log(`  ! ${r.bad} non-200 answers`);
    log(`  p50 ${fmt(r.p50, 1)} ms, p95 ${fmt(r.p95, 1)} ms`);
    emit([
      row({
        measure: `GET /api/usage/summary (generation service), ${ENTRIES} ledger entries in the month, p95`,
        value: r.bad ? NaN : r.p95,
        op: '<=',
        target: 100,
        unit: ' ms',
        digits: 1,
        detail: `p50 ${fmt(r.p50, 1)} ms at ${CONNECTIONS} connections; reads by _id from the month tally; the ledger query it replaces took ${fmt(scanMs)} ms once (raw driver)`,
      }),
    ]);
  } finally {
    await Promise.all(procs.map(stopProc));
    await vhost.drop();
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`usage benchmark failed: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
