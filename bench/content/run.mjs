#!/usr/bin/env node
// Benchmark of the content service's reads (issue 6), through the gateway, on FerretDB.
//
//   npm run bench:content -w @aict/bench        (or: node bench/content/run.mjs)
//
// Builds, starts the product with the bench profile (scripts/lib/stack.mjs, fresh databases),
// signs in as the super administrator, creates workspaces A, B (BENCH_CONTENTS each, default
// 100 000) and C (BENCH_SEARCH_CONTENTS, default 10 000), then seeds their contents straight
// into the content service's database: the documents the store use case writes (records,
// history pages, search pages and their trigram index, heads, counters, threads), built by
// the service's own `bulkDocuments` and inserted with insertMany. Then, one request at a time
// (BENCH_REQUESTS, default 200 per route), it measures the routes below and prints p50/p95,
// the p95 targets and the content service's RSS. Thread documents are seeded only
// for threads of several turns (a content without one answers its conversation from its
// record, as the service does).
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../infra/lib/paths.mjs';
import { startStack } from '../../scripts/lib/stack.mjs';

const require = createRequire(import.meta.url);
const execFileP = promisify(execFile);

const CONTENTS = Number(process.env.BENCH_CONTENTS ?? 100_000);
const SEARCH_CONTENTS = Number(process.env.BENCH_SEARCH_CONTENTS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
/** Stores measured per workspace (request/reply content.store, one at a time). */
const STORES = Number(process.env.BENCH_STORES ?? 100);
/**
 * Contents of workspace D, seeded without a search index (the store without index upkeep):
 * as many as A, so that the two store rows differ only by the upkeep.
 */
const UNINDEXED_CONTENTS = CONTENTS;
const MONGO_BASE = process.env.BENCH_MONGO_URL ?? 'mongodb://127.0.0.1:27017';

const log = (line = '') => process.stdout.write(`${line}\n`);

const WORDS = (
  'product launch summer sale banner newsletter campaign audience brand story customer ' +
  'winter collection discount offer social media post blog article headline slogan ' +
  'description feature benefit review quality price delivery service support team'
).split(' ');

function text(rng, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rng() * WORDS.length)]);
  return out.join(' ');
}

/** A small deterministic generator (mulberry32). */
function random(seed) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * GeneratedContent-shaped records of one workspace: every 4th an image; every 100th text
 * holds the word "zebra" (1 %, the search's hit); one 20-turn thread at the end.
 */
function generate(layout, workspaceId, count, userId, seed) {
  const rng = random(seed);
  const start = Date.now() - count * 60_000;
  const records = [];
  let threadRoot = null;
  for (let i = 0; i < count; i++) {
    const id = `${workspaceId.toString(36)}-${i.toString(36)}-${randomBytes(4).toString('hex')}`;
    const image = i % 4 === 0;
    const inThread = i >= count - 20;
    if (inThread && threadRoot === null) threadRoot = id;
    const body = text(rng, 40 + Math.floor(rng() * 60)) + (i % 100 === 1 ? ' zebra' : '');
    records.push(
      layout.recordOf({
        id,
        workspaceId,
        userId,
        title: `${text(rng, 4)} #${i}`,
        content: image ? `/api/images/${id}?workspaceId=${workspaceId}` : body,
        contentType: image && !inThread ? 'image' : 'text',
        model: image ? 'dall-e-3' : 'gpt-4o',
        language: 'en',
        promptId: null,
        parentId: inThread && id !== threadRoot ? records[records.length - 1]._id : null,
        threadId: inThread ? threadRoot : id,
        metadata:
          inThread && id !== threadRoot
            ? { originalMessage: 'and more?' }
            : { inputs: { message: 'hi' } },
        usage: { promptTokens: 12, completionTokens: 80, images: image ? 1 : 0 },
        createdAt: new Date(start + i * 60_000).toISOString(),
      }),
    );
  }
  return { records, threadRoot, last: records[records.length - 1]._id };
}

async function seed(db, layout, records, { index = true } = {}) {
  const docs = layout.bulkDocuments(records);
  const insert = async (name, list, batch = 1000) => {
    const coll = db.collection(name);
    for (let i = 0; i < list.length; i += batch)
      await coll.insertMany(list.slice(i, i + batch), { ordered: false });
  };
  await insert('contents', docs.contents);
  await insert('history_pages', docs.pages.map(layout.storedPage), 50);
  await insert('search_pages', docs.searchPages.map(layout.storedPage), 20);
  await insert('history_heads', docs.heads);
  await insert('threads', docs.threads.filter((t) => t.turns.length > 1).map(layout.storedThread));
  await insert('counters', docs.counters);
  if (index) {
    await insert('search_postings', docs.postings);
    await insert('search_page_grams', docs.pageGrams, 50);
  }
  return docs;
}

async function signIn(url, { username, password }) {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function createWorkspace(url, cookie, name) {
  const res = await fetch(`${url}/api/workspaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name }),
  });
  if (!res.ok) throw new Error(`workspace create failed: ${res.status} ${await res.text()}`);
  return (await res.json()).id;
}

async function measure(url, cookie, path, n = REQUESTS) {
  const times = [];
  let status = 0;
  for (let i = 0; i < n + 5; i++) {
    const t = process.hrtime.bigint();
    const res = await fetch(`${url}${path}`, { headers: { cookie } });
    await res.arrayBuffer();
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    status = res.status;
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    if (i >= 5) times.push(ms); // warm-up
  }
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  return { p50: q(50), p95: q(95), status };
}

async function rssOf(port) {
  try {
    const { stdout } = await execFileP('ss', ['-ltnpH', `sport = :${port}`]);
    const pid = /pid=(\d+)/.exec(stdout)?.[1];
    if (!pid) return 'n/a';
    const { stdout: status } = await execFileP('grep', ['VmRSS', `/proc/${pid}/status`]);
    return `${Math.round(Number(/(\d+)/.exec(status)[1]) / 1024)} MB`;
  } catch {
    return 'n/a';
  }
}

/** A finished generation as the generation service sends it (content.store). */
function storeRequest(rng, workspaceId, createdAt) {
  const id = randomUUID();
  return {
    id,
    workspaceId,
    userId: 'bench-user',
    title: `${text(rng, 4)} stored`,
    content: text(rng, 40 + Math.floor(rng() * 60)),
    contentType: 'text',
    model: 'gpt-4o',
    language: 'en',
    promptId: null,
    parentId: null,
    threadId: id,
    metadata: { inputs: { message: 'hi' } },
    usage: { promptTokens: 12, completionTokens: 80, images: 0 },
    createdAt: new Date(createdAt).toISOString(),
  };
}

/**
 * STORES stores, one at a time, by request/reply as the generation service makes them:
 * p50/p95 of the answer, and how long after the last answer the search index held every
 * page of the owner (its marker's `iv` equal to the head's `v`; -1: not indexed).
 */
async function measureStores(bus, db, layout, workspaceId, n) {
  const rng = random(workspaceId);
  const times = [];
  const t0 = Date.now();
  for (let i = 0; i < n + 5; i++) {
    const request = storeRequest(rng, workspaceId, t0 + i * 1000);
    const t = process.hrtime.bigint();
    const reply = await bus.request('content.store', request, { timeoutMs: 30_000 });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (!reply.stored) throw new Error(`content.store: not stored (${request.id})`);
    if (i >= 5) times.push(ms); // warm-up
  }
  const tLast = Date.now();
  let lagMs = -1;
  for (;;) {
    const [head, marker] = await Promise.all([
      db.collection('history_heads').findOne({ _id: `${workspaceId}:search` }),
      db.collection('search_postings').findOne({ _id: `ready:${workspaceId}` }),
    ]);
    if (!marker?.ready) break;
    const indexed = layout.decodeVersions(marker.iv);
    const behind = Object.entries(layout.decodeVersions(head?.v)).filter(
      ([p, v]) => indexed[p] !== v,
    );
    if (behind.length === 0) {
      lagMs = Date.now() - tLast;
      break;
    }
    if (Date.now() - tLast > 60_000) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  return { p50: q(50), p95: q(95), lagMs };
}

const cursorAt = (page, item) =>
  Buffer.from(JSON.stringify({ p: page, t: item.t, i: item.id })).toString('base64url');

async function main() {
  // BENCH_SKIP_BUILD=1: use the dist/ folders as they are (built beforehand).
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    log('building…');
    await execFileP('npm', ['run', 'build', '--silent'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
  }
  const layout = require(join(ROOT, 'services/content/dist/data/layout.js'));
  const { MongoClient } = require(
    require.resolve('mongodb', { paths: [join(ROOT, 'services/content')] }),
  );

  const suffix = Date.now().toString(36);
  // A vhost of this run alone: the bench and e2e profiles share `aict-test`, and request/reply
  // queues are shared by name within a vhost (another stack would answer our requests).
  const vhost = `aict-bench-content-${suffix}`;
  await execFileP('rabbitmqctl', ['add_vhost', vhost]);
  await execFileP('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*']);
  const dropVhost = () => execFileP('rabbitmqctl', ['delete_vhost', vhost]).catch(() => undefined);
  log('starting the stack (bench profile)…');
  const stack = await startStack({
    profile: 'bench',
    dbSuffix: suffix,
    env: { LOG_LEVEL: 'warn', AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}` },
  }).catch(async (err) => {
    await dropVhost();
    throw err;
  });
  // Ctrl-C: stop the stack's processes too.
  process.once(
    'SIGINT',
    () =>
      void stack
        .stop()
        .then(dropVhost)
        .then(() => process.exit(130)),
  );
  process.once(
    'SIGTERM',
    () =>
      void stack
        .stop()
        .then(dropVhost)
        .then(() => process.exit(143)),
  );
  const client = new MongoClient(MONGO_BASE);
  try {
    await client.connect();
    const db = client.db(`aictbench${suffix}_content`);
    const cookie = await signIn(stack.url, stack.superAdmin);
    const wsA = await createWorkspace(stack.url, cookie, `bench-a-${suffix}`);
    const wsB = await createWorkspace(stack.url, cookie, `bench-b-${suffix}`);
    const wsC = await createWorkspace(stack.url, cookie, `bench-c-${suffix}`);
    const wsD = await createWorkspace(stack.url, cookie, `bench-d-${suffix}`);

    const t0 = Date.now();
    const a = generate(layout, wsA, CONTENTS, 'bench-user', 1);
    const docsA = await seed(db, layout, a.records);
    const b = generate(layout, wsB, CONTENTS, 'bench-user', 2);
    await seed(db, layout, b.records);
    const c = generate(layout, wsC, SEARCH_CONTENTS, 'bench-user', 3);
    await seed(db, layout, c.records);
    const dRecords = generate(layout, wsD, UNINDEXED_CONTENTS, 'bench-user', 4).records;
    await seed(db, layout, dRecords, { index: false });
    log(
      `seeded ${2 * CONTENTS + SEARCH_CONTENTS} contents in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const allPages = docsA.pages.filter((p) => p._id.startsWith(`${wsA}:all:`));
    const mid = allPages[Math.floor(allPages.length / 2)];
    const later = cursorAt(Number(mid._id.split(':')[2]), mid.items[50] ?? mid.items[0]);

    const k = (n) => `${n / 1000}k`;
    // [name, path, requests, p95 target in ms (the issue "Performance")]
    const routes = [
      ['history, first page (A)', `/api/contents?workspaceId=${wsA}&limit=20`, REQUESTS, 30],
      [
        'history, a later page (A, middle)',
        `/api/contents?workspaceId=${wsA}&limit=20&cursor=${later}`,
      ],
      ['history, images only (A)', `/api/contents?workspaceId=${wsA}&type=image&limit=20`],
      [
        'conversation, 20 turns (A)',
        `/api/contents/${a.last}/conversation?workspaceId=${wsA}`,
        REQUESTS,
        30,
      ],
      [
        'content by id (A)',
        `/api/contents/${a.records[1234]._id}?workspaceId=${wsA}`,
        REQUESTS,
        30,
      ],
      ['stats (A)', `/api/stats?workspaceId=${wsA}`, REQUESTS, 30],
      ['history, first page (B)', `/api/contents?workspaceId=${wsB}&limit=20`, REQUESTS, 30],
      [
        `search 1 % hit "zebra" (C, ${k(SEARCH_CONTENTS)})`,
        `/api/contents?workspaceId=${wsC}&q=zebra&limit=20`,
      ],
      [
        `search no hit (C, ${k(SEARCH_CONTENTS)})`,
        `/api/contents?workspaceId=${wsC}&q=${encodeURIComponent('no such (text)')}&limit=20`,
      ],
      [
        `search 1 % hit "zebra" (A, ${k(CONTENTS)})`,
        `/api/contents?workspaceId=${wsA}&q=zebra&limit=20`,
        REQUESTS,
        50,
      ],
      [
        `search rare hit "#4321" (A, ${k(CONTENTS)})`,
        `/api/contents?workspaceId=${wsA}&q=${encodeURIComponent('#4321')}&limit=20`,
        REQUESTS,
        50,
      ],
      [
        `search no hit (A, ${k(CONTENTS)})`,
        `/api/contents?workspaceId=${wsA}&q=nothing-matches&limit=20`,
        REQUESTS,
        50,
      ],
      [
        `search 2 characters, no hit (A, ${k(CONTENTS)})`,
        `/api/contents?workspaceId=${wsA}&q=qx&limit=20`,
        REQUESTS,
        50,
      ],
    ];
    log('');
    const contentPort = new URL(stack.services.content).port;
    log(`content service RSS before the measurements: ${await rssOf(contentPort)}`);
    log('');
    log(`| route | requests | p50 ms | p95 ms | p95 target | content RSS after |`);
    log(`|---|---|---|---|---|---|`);
    for (const [name, path, n = REQUESTS, target] of routes) {
      try {
        const r = await measure(stack.url, cookie, path, n);
        const verdict = target ? `≤ ${target}: ${r.p95 <= target ? 'met' : 'MISSED'}` : '–';
        log(
          `| ${name} | ${n} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${verdict} | ${await rssOf(contentPort)} |`,
        );
      } catch (err) {
        log(`| ${name} | – | failed: ${err.message} | | | |`);
      }
    }
    log('');
    // The store's answer time with the index upkeep (A: indexed, 100k) and without it (D:
    // no index, more pages than the upkeep builds by itself, so its upkeep writes nothing).
    const { createBus, createLogger } = require('@aict/service-kit');
    const bus = await createBus({
      url: `amqp://guest:guest@127.0.0.1:5672/${vhost}`,
      service: 'benchgeneration',
      logger: createLogger('bench-content', { level: 'warn' }),
    });
    try {
      log(
        `| store (content.store, one at a time) | stores | p50 ms | p95 ms | index caught up after |`,
      );
      log(`|---|---|---|---|---|`);
      for (const [name, ws] of [
        [`store with index upkeep (A, ${k(CONTENTS)})`, wsA],
        [`store without index (D, ${k(UNINDEXED_CONTENTS)}, no index)`, wsD],
        [`store with index upkeep (A, again)`, wsA],
      ]) {
        const r = await measureStores(bus, db, layout, ws, STORES);
        const lag = r.lagMs < 0 ? '–' : `${r.lagMs} ms`;
        log(`| ${name} | ${STORES} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${lag} |`);
      }
    } finally {
      await bus.close();
    }
    log('');
  } finally {
    await stack.stop();
    for (const name of stack.databases)
      await client
        .db(name)
        .dropDatabase()
        .catch(() => undefined);
    await client.close();
    await dropVhost();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
