#!/usr/bin/env node
// The benchmark suite (issue 8): `npm run bench` runs every benchmark below in sequence, each
// in its own process (each can also run alone: node bench/<name>/run.mjs), and prints ONE
// table: each figure measured side by side in the same run, its target, pass or by how much
// it misses.
//
//   BENCH_ONLY=bus,streaming npm run bench       choose (names below)
//   BENCH_ROUNDS, BENCH_DURATION, BENCH_LOAD_MINUTES (10), …   see each benchmark's header
//   npm run bench -- --quick                    the same rows and table in a few minutes:
//                                               one round, shorter loads, smaller data (QUICK)
//
// The suite builds once (npm run build), then runs the benchmarks with BENCH_SKIP_BUILD=1.
// It holds /tmp/aict-bench.lock for its whole run (stack benchmarks use the bench profile
// ports) and waits while bench/content/run.mjs runs on its own.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../infra/lib/paths.mjs';
import { buildAll, failedRow, fmt, log, readRows, row, table } from './lib/report.mjs';
import { holdBenchLock, waitForContentBench } from './lib/stack.mjs';
import { useProjectNode } from '../infra/lib/node-runtime.mjs';

await useProjectNode();

/** `--quick`: fewer rounds and smaller loads; what is set in the environment still wins. */
const QUICK = {
  BENCH_ROUNDS: '1',
  BENCH_DURATION: '2',
  BENCH_STREAMS: '5',
  BENCH_CONCURRENT: '100',
  BENCH_COST_GENERATIONS: '24',
  BENCH_EVENTS: '5000',
  BENCH_CALLS: '300',
  BENCH_LOAD_MINUTES: '0.5',
  BENCH_IDLE_SECONDS: '1',
  BENCH_B_REQUESTS: '20',
  BENCH_FLOOD: '100',
  BENCH_USAGE_ENTRIES: '10000',
  BENCH_CONTENTS: '2000',
  BENCH_SEARCH_CONTENTS: '1000',
  BENCH_REQUESTS: '20',
  BENCH_STORES: '40',
};
const quick = process.argv.includes('--quick');
if (quick) for (const [key, value] of Object.entries(QUICK)) process.env[key] ??= value;

holdBenchLock();

/** name → the targets its rows answer (for the table when it fails). */
const BENCHMARKS = {
  gateway: [
    'authenticated GET through the gateway vs straight: ≥ 0.8x req/s, ≤ 0.5 ms added median',
  ],
  'service-list': ['a service list route vs raw node:http + mongodb driver: ≥ 0.5x'],
  bus: ['RabbitMQ events with confirms ≥ 5000/s; request/reply median ≤ 0.3 ms and ≤ 2x HTTP'],
  streaming: [
    'streaming TTFT + ≤ 3 ms median; 500 concurrent streams, 0 errors, p95 added ≤ 20 ms',
  ],
  frontend: [
    'critical JS ≤ 120 KB gzip; federated ≤ 1.15x one bundle, usable ≤ 1.2x; ≤ 2 round trips',
  ],
  memory: ['memory per service at rest ≤ 80 MB, under k6 load ≤ 120 MB RSS; growth ≤ 5 %'],
  'noisy-neighbour': ["another workspace's p95 under a 500-generation flood ≤ 1.5x alone"],
  usage: ['usage summary of a workspace with 100k ledger entries: p95 ≤ 100 ms'],
  content: [
    'history at 100k items: search p95 ≤ 50 ms; first page, conversation, by id, stats ≤ 30 ms',
  ],
};

const chosen = (process.env.BENCH_ONLY ?? Object.keys(BENCHMARKS).join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = chosen.filter((n) => !BENCHMARKS[n]);
if (unknown.length) {
  log(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}

function runChild(script, env, capture = false) {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(process.execPath, [join(ROOT, script)], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SKIP_BUILD: '1', ...env },
      stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    });
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

/**
 * bench/content prints its own tables (route, requests, p50, p95, p95 target, RSS; then the
 * stores): rows judged against their p95 target where they have one, informative otherwise.
 */
function contentRows(out) {
  return out
    .split('\n')
    .filter(
      (l) =>
        l.startsWith('| ') &&
        !l.startsWith('| route') &&
        !l.startsWith('| store (content.store') &&
        !l.startsWith('|---'),
    )
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    )
    .map(([route, requests, p50, p95, verdict, rss]) => {
      // "≤ 30: met" / "≤ 50: MISSED" (the p95 targets), "–" for a row without one.
      const target = /^≤ ([\d.]+)/.exec(verdict ?? '')?.[1];
      const base = {
        measure: `content (through the gateway): ${route}`,
        figure: `p95 ${p95} ms`,
        detail: `p50 ${p50} ms; ${requests} requests; content RSS ${rss}`,
      };
      const info = { ...base, figure: `p50 ${p50} ms, p95 ${p95} ms`, target: '–', result: 'info' };
      // A store row: its fifth column says when the search index had caught up.
      if (rss === undefined)
        return { ...info, detail: `${requests} stores; index caught up after ${verdict}` };
      if (!target) return info;
      const pass = Number(p95) <= Number(target);
      return {
        ...base,
        target: `≤ ${target} ms`,
        pass,
        result: pass ? 'pass' : `MISS over by ${(Number(p95) - Number(target)).toFixed(1)} ms`,
      };
    });
}

const started = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'aict-bench-'));
const rows = [];
/** [benchmark, ms] in the order they ran. */
const durations = [];
try {
  log(`benchmark suite${quick ? ' (--quick)' : ''}: ${chosen.join(', ')}`);
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    await buildAll(ROOT);
    durations.push(['build', Date.now() - started]);
  }
  await waitForContentBench(); // it would share the CPUs and the bench profile ports
  for (const name of chosen) {
    log(`\n=== ${name} ===`);
    const benchStarted = Date.now();
    if (name === 'content') {
      const { code, out } = await runChild(
        'bench/content/run.mjs',
        {
          // The scale (100k per workspace; about 2.5 min of seeding); --quick: 2k.
          BENCH_CONTENTS: process.env.BENCH_CONTENTS ?? '100000',
          BENCH_SEARCH_CONTENTS: process.env.BENCH_SEARCH_CONTENTS ?? '10000',
          BENCH_REQUESTS: process.env.BENCH_REQUESTS ?? '100',
        },
        true,
      );
      const got = contentRows(out);
      rows.push(...(got.length ? got : [failedRow(name, BENCHMARKS.content[0], `exit ${code}`)]));
      durations.push([name, Date.now() - benchStarted]);
      continue;
    }
    const file = join(dir, `${name}.json`);
    const { code } = await runChild(`bench/${name}/run.mjs`, { BENCH_RESULT_FILE: file });
    const got = readRows(file);
    if (got?.length) rows.push(...got);
    else rows.push(failedRow(name, BENCHMARKS[name][0], `exit ${code}; see its output above`));
    durations.push([name, Date.now() - benchStarted]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The suite's own length (issue 15): --quick within 3 minutes, the full suite within 15,
// the build included; judged only when every benchmark ran.
const minutes = (Date.now() - started) / 60_000;
if (!process.env.BENCH_ONLY) {
  rows.push(
    row({
      measure: `the suite's duration (${quick ? '--quick' : 'full'}, build included)`,
      value: minutes,
      op: '<=',
      target: quick ? 3 : 15,
      unit: ' min',
      digits: 1,
      detail: durations.map(([name, ms]) => `${name} ${fmt(ms / 1000, 0)} s`).join(', '),
    }),
  );
}
const judged = rows.filter((r) => r.result !== 'info');
const passed = judged.filter((r) => r.pass).length;
log(`\n=== results (${minutes.toFixed(1)} min; medians over rounds) ===\n`);
log(table(rows));
log(`\n${passed} of ${judged.length} targets met.`);
process.exit(0);
