#!/usr/bin/env node
// Benchmark of the noisy neighbour (Hardening issue): one workspace (A) sends 500 generations
// at once while another workspace (B) works as usual. The generation service caps the
// generations one workspace runs at once (GENERATION_MAX_CONCURRENT_PER_WORKSPACE, 4, plus a
// queue of GENERATION_MAX_QUEUED_PER_WORKSPACE, 16; per replica; GENERATION_SHARED_PLACES
// optionally shares places among the busy workspaces); the rest of A's flood gets 429 with
// Retry-After. Target: B's p95 under the flood ≤ 1.5× its p95 alone.
//
//   node bench/noisy-neighbour/run.mjs     (or: BENCH_ONLY=noisy-neighbour npm run bench)
//
// The stack (bench profile, fresh databases, own vhost) with the simulator pacing a realistic
// provider (load/run.mjs REALISTIC_PROVIDER). Through the gateway, as the super administrator:
//   B alone      BENCH_B_REQUESTS (60) JSON generations, BENCH_B_CONCURRENCY (4) at a time;
//                p50 and p95 of their wall time.
//   B + flood    the same while A, in a process of its own (its own CPU time is not B's
//                event loop), sends BENCH_FLOOD (500) generations at once. BENCH_FLOOD_MODE:
//                `polite` (default) — a refused one is sent again after its Retry-After plus
//                up to as much again of random jitter, as a well-behaved client does, until all
//                ran or B is done; `hostile` — each refused one is sent again at once.
//                A's answers are counted by status (200 ran, 429 refused; else an error).
//   BENCH_ROUNDS (3) rounds of both, order alternating; the ratio is the median over rounds.
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../../infra/lib/paths.mjs';
import { REALISTIC_PROVIDER, prepare } from '../../load/run.mjs';
import { buildAll, emit, fmt, log, median, row } from '../lib/report.mjs';
import { holdBenchLock, signIn, startBenchStack } from '../lib/stack.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const B_REQUESTS = Number(process.env.BENCH_B_REQUESTS ?? 60);
const B_CONCURRENCY = Number(process.env.BENCH_B_CONCURRENCY ?? 4);
const FLOOD = Number(process.env.BENCH_FLOOD ?? 500);
const FLOOD_MODE = process.env.BENCH_FLOOD_MODE === 'hostile' ? 'hostile' : 'polite';

const percentile = (values, p) => {
  const sorted = Float64Array.from(values).sort();
  return sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]
    : NaN;
};

let n = 0;
/** One JSON generation in `space` through the gateway; its status, Retry-After and wall time. */
async function generate(url, cookie, space) {
  n += 1;
  const started = performance.now();
  const res = await fetch(`${url}/api/generate`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'x-workspace-id': String(space.id) },
    body: JSON.stringify({
      promptId: space.chat,
      inputs: { message: `Hello number ${n}` },
      workspaceId: space.id,
    }),
  });
  await res.arrayBuffer();
  const retryAfter = Number(res.headers.get('retry-after') ?? 1);
  return { status: res.status, retryAfter, ms: performance.now() - started };
}

/** The flood process: FLOOD generations of A at once until told to stop; sends its counts. */
async function flood({ url, cookie, space, mode }) {
  const counts = { ran: 0, refused: 0, other: 0 };
  let stopped = false;
  process.on('message', (msg) => {
    if (msg === 'stop') stopped = true;
  });
  const one = async () => {
    while (!stopped) {
      const r = await generate(url, cookie, space).catch(() => ({ status: 0, retryAfter: 1 }));
      if (r.status === 200) return void (counts.ran += 1);
      if (r.status !== 429) return void (counts.other += 1);
      counts.refused += 1;
      if (mode === 'polite') await sleep(r.retryAfter * 1000 * (1 + Math.random()));
    }
  };
  process.send('started');
  await Promise.race([
    Promise.all(Array.from({ length: FLOOD }, one)),
    new Promise((resolve) => process.on('message', (msg) => msg === 'stop' && resolve())),
  ]);
  process.send({ counts });
  process.exit(0);
}

if (process.env.BENCH_FLOOD_CHILD === '1') {
  process.once('message', (job) => void flood(job));
} else {
  holdBenchLock();
  main().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`noisy-neighbour benchmark failed: ${err.stack ?? err}\n`);
      process.exit(1);
    },
  );
}

async function main() {
  log('noisy-neighbour benchmark: one workspace floods, another one is timed');
  await buildAll(ROOT);
  // The cap can be tried at other values: GENERATION_MAX_CONCURRENT_PER_WORKSPACE=8 node …
  const capEnv = Object.fromEntries(
    [
      'GENERATION_MAX_CONCURRENT_PER_WORKSPACE',
      'GENERATION_MAX_QUEUED_PER_WORKSPACE',
      'GENERATION_SHARED_PLACES',
    ]
      .filter((key) => process.env[key])
      .map((key) => [key, process.env[key]]),
  );
  const stack = await startBenchStack('noisy', { env: capEnv });
  try {
    await fetch(`${stack.simulatorUrl}/__sim/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(REALISTIC_PROVIDER),
    });
    const { spaces } = await prepare(stack, { workspaces: 2, users: 0 });
    const [a, b] = spaces;
    const cookie = await signIn(stack.url, stack.superAdmin);

    const generateIn = (space) => generate(stack.url, cookie, space);

    /** B's usual work: B_REQUESTS generations, B_CONCURRENCY at a time. */
    const workOfB = async () => {
      const times = [];
      let errors = 0;
      let left = B_REQUESTS;
      await Promise.all(
        Array.from({ length: B_CONCURRENCY }, async () => {
          while (left > 0) {
            left -= 1;
            const r = await generateIn(b);
            if (r.status === 200) times.push(r.ms);
            else errors += 1;
          }
        }),
      );
      return { p50: median(times), p95: percentile(times, 0.95), errors };
    };

    /** Starts A's flood in a process of its own; `stop()` ends it and gives its counts. */
    const startFlood = async () => {
      const child = fork(fileURLToPath(import.meta.url), [], {
        env: { ...process.env, BENCH_FLOOD_CHILD: '1' },
      });
      const started = new Promise((resolve) => child.once('message', resolve));
      const result = new Promise((resolve, reject) => {
        child.on('message', (msg) => msg?.counts && resolve(msg.counts));
        child.once('exit', (code) => reject(new Error(`the flood process exited with ${code}`)));
        child.on('error', () => undefined); // a late 'stop' to an ended process
      });
      child.send({ url: stack.url, cookie, space: a, mode: FLOOD_MODE });
      await started;
      return {
        stop() {
          // All of A's generations may have run already (then the process has ended).
          if (child.connected) child.send('stop');
          return result;
        },
      };
    };

    // Warm up both paths.
    for (const space of [a, b]) {
      const r = await generateIn(space);
      if (r.status !== 200) throw new Error(`generation in workspace ${space.id}: ${r.status}`);
    }
    log(`  simulator: ${JSON.stringify(REALISTIC_PROVIDER)}; cap: ${JSON.stringify(capEnv)}`);
    log(
      `  B: ${B_REQUESTS} generations, ${B_CONCURRENCY} at a time; A: ${FLOOD} at once (${FLOOD_MODE})`,
    );
    log('  round  B alone p50/p95 ms   B under flood p50/p95 ms   p95 ratio   A ran/refused/other');
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const r = {};
      for (const which of round % 2 ? ['alone', 'flood'] : ['flood', 'alone']) {
        if (which === 'alone') r.alone = await workOfB();
        else {
          const flood = await startFlood();
          await sleep(300); // A's generations are on their way
          const measured = await workOfB();
          const counts = await flood.stop();
          await sleep(3000); // what A had running ends before anything else is timed
          r.flood = measured;
          r.counts = counts;
        }
      }
      r.ratio = r.flood.p95 / r.alone.p95;
      rounds.push(r);
      log(
        `  ${String(round).padStart(5)}  ${`${fmt(r.alone.p50)}/${fmt(r.alone.p95)}`.padStart(19)}   ${`${fmt(r.flood.p50)}/${fmt(r.flood.p95)}`.padStart(24)}   ${fmt(r.ratio, 2).padStart(9)}   ${r.counts.ran}/${r.counts.refused}/${r.counts.other}`,
      );
      if (r.alone.errors || r.flood.errors)
        log(`  ! B had ${r.alone.errors + r.flood.errors} failed generations`);
    }

    const m = (f) => median(rounds.map(f));
    const other = rounds.reduce((sum, r) => sum + r.counts.other, 0);
    emit([
      row({
        measure: `noisy neighbour: B's p95 while A sends ${FLOOD} generations at once (${FLOOD_MODE} client), vs B alone`,
        value: m((r) => r.ratio),
        op: '<=',
        target: 1.5,
        unit: 'x',
        digits: 2,
        detail: `p95 ${fmt(m((r) => r.flood.p95))} vs ${fmt(m((r) => r.alone.p95))} ms; p50 ${fmt(m((r) => r.flood.p50))} vs ${fmt(m((r) => r.alone.p50))} ms; A per round: ${fmt(m((r) => r.counts.ran))} ran, ${fmt(m((r) => r.counts.refused))} refused (429)`,
      }),
      row({
        measure: `noisy neighbour: A's generations answered other than 200 or 429`,
        value: other,
        op: '<=',
        target: 0,
        digits: 0,
      }),
    ]);
  } finally {
    await stack.stop();
  }
}
