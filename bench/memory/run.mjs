#!/usr/bin/env node
// Benchmark of memory under load (issue 8): the resident memory of every process of the
// product at rest (started, before any load) and while k6 runs load/mixed.js.
//
//   node bench/memory/run.mjs        (or: BENCH_ONLY=memory npm run bench)
//
// The stack (bench profile, fresh databases, own vhost) with the simulator at a realistic
// latency, prepared as load/run.mjs prepares it (3 workspaces, 64 users), then k6 for
// BENCH_LOAD_MINUTES (10) minutes (LOAD_DURATION); mixed.js here runs load/mixed.js with the
// VU's cookie jar kept between iterations (see there). VmRSS of each process (/proc/<pid>/status)
// every 10 s; the figures: each service's and the gateway's RSS at rest and at the end
// (largest in the table) and its growth from minute 2 to the end (largest in the table; from a
// third of the load when it is shorter than 4 minutes). The simulator is sampled but not
// judged (it is not the product). The figures are reported whether or not k6's thresholds held.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureK6 } from '../../infra/lib/binaries.mjs';
import { DATA_DIR, ROOT } from '../../infra/lib/paths.mjs';
import { REALISTIC_PROVIDER, prepare, runK6 } from '../../load/run.mjs';
import { buildAll, emit, fmt, log, row, rssMb } from '../lib/report.mjs';
import { holdBenchLock, startBenchStack } from '../lib/stack.mjs';

holdBenchLock();

const MINUTES = Number(process.env.BENCH_LOAD_MINUTES ?? 10);
const SAMPLE_MS = 10_000;

async function main() {
  log(`memory benchmark: RSS of every process at rest, then under ${MINUTES} min of k6 load`);
  await buildAll(ROOT);
  const k6 = await ensureK6();
  const stack = await startBenchStack('memory');
  try {
    await fetch(`${stack.simulatorUrl}/__sim/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(REALISTIC_PROVIDER),
    });
    const { users } = await prepare(stack);
    mkdirSync(DATA_DIR, { recursive: true });
    const usersFile = join(DATA_DIR, 'bench-memory-users.json');
    writeFileSync(usersFile, JSON.stringify(users));
    const pids = stack.pids();
    const sample = () =>
      Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, rssMb(pid)]));
    const atStart = sample();
    log(
      `  RSS before the load (MB): ${Object.entries(atStart)
        .map(([n, v]) => `${n} ${fmt(v)}`)
        .join(', ')}`,
    );

    const t0 = Date.now();
    const samples = [];
    const timer = setInterval(() => samples.push({ t: Date.now() - t0, rss: sample() }), SAMPLE_MS);
    const summaryFile = join(DATA_DIR, 'bench-memory-k6.json');
    const code = await runK6(
      k6,
      [
        'run',
        '--quiet',
        '--summary-export',
        summaryFile,
        join(ROOT, 'bench', 'memory', 'mixed.js'),
      ],
      {
        BASE_URL: stack.url,
        LOAD_USERS_FILE: usersFile,
        LOAD_DURATION: `${MINUTES}m`,
      },
    );
    clearInterval(timer);
    samples.push({ t: Date.now() - t0, rss: sample() }); // the end of the load
    let failedRate = NaN;
    let requests = NaN;
    try {
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
      failedRate = summary.metrics.http_req_failed.value * 100;
      requests = summary.metrics.http_reqs.count;
    } catch {
      /* no summary */
    }
    log(`  k6: ${fmt(requests)} requests, ${fmt(failedRate, 1)} % failed`);
    log(`  k6 exited with ${code}${code ? ' (a threshold failed; see its summary above)' : ''}`);
    // Growth is judged from minute 2 (the issue's window, past warm-up) to the end; a load
    // shorter than 4 minutes (--quick) from a third of it.
    const from = MINUTES >= 4 ? 120_000 : (MINUTES * 60_000) / 3;
    const minute1 = samples.find((s) => s.t >= from) ?? samples[0];
    const last = samples.at(-1);
    if (!minute1 || !last || last.t - minute1.t < 15_000)
      throw new Error(
        `too few samples (${samples.length}): the load ended after ${(Date.now() - t0) / 1000} s`,
      );
    log(`  RSS (MB) at ${fmt(minute1.t / 1000)} s and at ${fmt(last.t / 1000)} s:`);
    const judged = Object.keys(pids).filter((n) => n !== 'provider-sim');
    const per = Object.keys(pids)
      .map((n) => {
        const a = minute1.rss[n];
        const b = last.rss[n];
        const growth = ((b - a) / a) * 100;
        log(
          `    ${n.padEnd(12)} ${fmt(a).padStart(5)} → ${fmt(b).padStart(5)}  (${growth >= 0 ? '+' : ''}${fmt(growth, 1)} %)${judged.includes(n) ? '' : '  (not judged)'}`,
        );
        return { n, a, b, growth };
      })
      .filter((p) => judged.includes(p.n));
    const biggest = per.reduce((x, y) => (y.b > x.b ? y : x));
    const fastest = per.reduce((x, y) => (y.growth > x.growth ? y : x));
    const list = (f) => per.map((p) => `${p.n} ${f(p)}`).join(', ');
    const idle = judged.map((n) => ({ n, rss: atStart[n] }));
    const idlest = idle.reduce((x, y) => (y.rss > x.rss ? y : x));
    emit([
      row({
        measure:
          'memory at rest (started, before the load): largest RSS of a service or the gateway',
        value: idlest.rss,
        op: '<=',
        target: 80,
        unit: ' MB',
        digits: 0,
        detail: `${idlest.n}; all: ${idle.map((p) => `${p.n} ${fmt(p.rss)}`).join(', ')} MB`,
      }),
      row({
        measure: `memory under k6 load (${MINUTES} min): largest RSS of a service or the gateway at the end`,
        value: biggest.b,
        op: '<=',
        target: 120,
        unit: ' MB',
        digits: 0,
        detail: `${biggest.n}; all: ${list((p) => fmt(p.b))} MB; k6 exit ${code}, ${fmt(requests)} requests, ${fmt(failedRate, 1)} % failed`,
      }),
      row({
        measure: `memory growth from minute ${fmt(minute1.t / 60_000, 1)} to minute ${fmt(last.t / 60_000, 1)} (largest)`,
        value: fastest.growth,
        op: '<=',
        target: 5,
        unit: ' %',
        digits: 1,
        detail: `${fastest.n}; all: ${list((p) => `${fmt(p.growth, 1)}`)} %`,
      }),
    ]);
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`memory benchmark failed: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
