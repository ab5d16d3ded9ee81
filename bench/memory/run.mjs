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
// third of the load when it is shorter than 4 minutes; the minutes count from the end of k6's
// ramp). The simulator is sampled but not judged (it is not the product). The figures are
// reported whether or not k6's thresholds held; the load's own rows follow them: the k6
// thresholds crossed (with what one sign-in's scrypt costs), the dropped iterations, and the
// contents found in a wrong workspace afterwards (load/run.mjs's isolation check).
//
// Heap snapshots (bench/lib/heap.mjs) over the last part of the load, after the RSS window
// (a snapshot costs its process tens of MB of RSS for a while): one of each process that grew
// more than the target (else of the one that grew most; at most 2) at the end of the RSS
// window, one once the load is over. What grew between them, by constructor, is logged, and
// the largest items are named in the growth row.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureK6 } from '../../infra/lib/binaries.mjs';
import { DATA_DIR, ROOT } from '../../infra/lib/paths.mjs';
import { REALISTIC_PROVIDER, checkIsolation, prepare, runK6 } from '../../load/run.mjs';
import {
  clearSnapshots,
  heapByConstructor,
  heapFlags,
  heapGrowth,
  takeSnapshot,
} from '../lib/heap.mjs';
import { buildAll, emit, fmt, log, row, rssMb } from '../lib/report.mjs';
import { holdBenchLock, startBenchStack } from '../lib/stack.mjs';

holdBenchLock();

const MINUTES = Number(process.env.BENCH_LOAD_MINUTES ?? 10);
/** RSS sampling: every 10 s; every 5 s in a load shorter than 4 minutes (--quick). */
const SAMPLE_MS = MINUTES >= 4 ? 10_000 : 5_000;
/** k6's ramp before the load holds (load/mixed.js): shorter in a short load. */
const RAMP_S = MINUTES >= 4 ? 10 : 5;

/**
 * Where a process's resident memory sits: its V8 heap (used and reserved) and the memory
 * V8 counts outside it (Buffers and the like), from the service's Prometheus metrics, and
 * its resident pages mapped from files (mostly the node binary itself, shared by every
 * node process) from /proc. Null where a figure cannot be read.
 */
async function breakdown(pid, metricsUrl) {
  const mb = (bytes) => bytes / 1024 / 1024;
  let fileMb = null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    fileMb = Number(/^RssFile:\s+(\d+)/m.exec(status)?.[1]) / 1024;
  } catch {
    /* gone */
  }
  const out = { fileMb, heapUsedMb: null, heapTotalMb: null, externalMb: null };
  if (!metricsUrl) return out;
  try {
    const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) })).text();
    const read = (name) => {
      const m = new RegExp(`^${name} (\\S+)`, 'm').exec(text);
      return m ? mb(Number(m[1])) : null;
    };
    out.heapUsedMb = read('nodejs_heap_size_used_bytes');
    out.heapTotalMb = read('nodejs_heap_size_total_bytes');
    out.externalMb = read('nodejs_external_memory_bytes');
  } catch {
    /* no metrics */
  }
  return out;
}

/** What one sign-in's password check costs: the auth service's verifyPassword, median of 5. */
async function signInCost() {
  const require = createRequire(import.meta.url);
  const passwords = require(join(ROOT, 'services', 'auth', 'dist', 'domain', 'passwords.js'));
  const stored = await passwords.hashPassword('load-test-password');
  const times = [];
  for (let i = 0; i < 5; i += 1) {
    const t = performance.now();
    await passwords.verifyPassword('load-test-password', stored);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[2];
}

const describe = (b) =>
  `V8 heap ${fmt(b.heapUsedMb)} used of ${fmt(b.heapTotalMb)}, external ${fmt(b.externalMb)}, file-backed pages (the node binary) ${fmt(b.fileMb)} MB`;

async function main() {
  log(`memory benchmark: RSS of every process at rest, then under ${MINUTES} min of k6 load`);
  await buildAll(ROOT);
  const k6 = await ensureK6();
  const heapDir = join(DATA_DIR, 'bench-heap');
  clearSnapshots(heapDir);
  mkdirSync(heapDir, { recursive: true });
  const stack = await startBenchStack('memory', {
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${heapFlags(heapDir)}`.trim() },
  });
  try {
    await fetch(`${stack.simulatorUrl}/__sim/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(REALISTIC_PROVIDER),
    });
    const { admin, spaces, users } = await prepare(stack);
    mkdirSync(DATA_DIR, { recursive: true });
    const usersFile = join(DATA_DIR, 'bench-memory-users.json');
    writeFileSync(usersFile, JSON.stringify(users));
    const pids = stack.pids();
    const sample = () =>
      Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, rssMb(pid)]));
    const atStart = sample();
    const metricsOf = (n) => stack.services[n] && `${stack.services[n]}/metrics`;
    log(
      `  RSS before the load (MB): ${Object.entries(atStart)
        .map(([n, v]) => `${n} ${fmt(v)}`)
        .join(', ')}`,
    );

    const restParts = Object.fromEntries(
      await Promise.all(
        Object.keys(pids).map(async (n) => [n, await breakdown(pids[n], metricsOf(n))]),
      ),
    );
    for (const [n, b] of Object.entries(restParts)) log(`    ${n.padEnd(12)} ${describe(b)}`);

    // RSS growth is judged from minute 2 (the issue's window, past warm-up; from a third of the
    // load when it is shorter than 4 minutes) to the start of the heap comparison, which takes
    // the last `heapSpan` of the load: a snapshot costs its process memory of its own (tens of
    // MB of RSS for a while), so no RSS figure is read after one.
    const loadMs = MINUTES * 60_000;
    const from = MINUTES >= 4 ? 120_000 : loadMs / 3;
    const heapSpan = MINUTES >= 4 ? 90_000 : loadMs / 3;
    const judged = Object.keys(pids).filter((n) => n !== 'provider-sim');
    // k6 ramps each rate up first (load/mixed.js, LOAD_RAMP): the minutes count from the end of
    // the ramp, so a sample taken during it has a negative time.
    const t0 = Date.now() + RAMP_S * 1000;
    const samples = [];
    const timer = setInterval(() => samples.push({ t: Date.now() - t0, rss: sample() }), SAMPLE_MS);
    // At the end of the RSS window: the window's last sample, then a first heap snapshot of the
    // processes that grew most (those over the target, else the one that grew most; at most 2).
    const windowEnd = sleep(RAMP_S * 1000 + loadMs - heapSpan).then(async () => {
      clearInterval(timer);
      const end = { t: Date.now() - t0, rss: sample() };
      samples.push(end);
      log(`  where the memory sits at ${fmt(end.t / 1000)} s (RSS, MB):`);
      for (const n of Object.keys(pids))
        log(
          `    ${n.padEnd(12)} ${fmt(end.rss[n]).padStart(4)}: ${describe(await breakdown(pids[n], metricsOf(n)))}`,
        );
      const start = samples.find((x) => x.t >= from) ?? samples[0];
      const growth = (n) => (end.rss[n] - start.rss[n]) / start.rss[n];
      const ranked = [...judged].sort((a, b) => growth(b) - growth(a));
      const chosen = ranked.filter((n) => growth(n) > 0.05).slice(0, 2);
      const watched = chosen.length > 0 ? chosen : ranked.slice(0, 1);
      log(`  heap snapshots of ${watched.join(', ')} at ${fmt(end.t / 1000)} s …`);
      const first = {};
      for (const n of watched) first[n] = await takeSnapshot(heapDir, pids[n]);
      return { end, first };
    });
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
        LOAD_RAMP: `${RAMP_S}s`,
      },
    );
    // The second snapshot of each watched process, once the load is over (what it still holds).
    const { end: windowLast, first } = await windowEnd;
    log(`  heap snapshots again at ${fmt((Date.now() - t0) / 1000)} s (the load is over) …`);
    const last = {};
    for (const n of Object.keys(first)) last[n] = await takeSnapshot(heapDir, pids[n]);
    let failedRate = NaN;
    /** k6's thresholds that were crossed (`metric expression`), its dropped iterations, p95s. */
    let crossed = null;
    let dropped = NaN;
    let iterationsPerSecond = NaN;
    const p95 = {};
    let requests = NaN;
    try {
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
      failedRate = summary.metrics.http_req_failed.value * 100;
      requests = summary.metrics.http_reqs.count;
      crossed = [];
      for (const [metric, m] of Object.entries(summary.metrics)) {
        // --summary-export marks a crossed threshold true
        for (const [expr, failed] of Object.entries(m.thresholds ?? {}))
          if (failed) crossed.push(`${metric} ${expr}`);
        const kind = /^http_req_duration\{kind:(.+)\}$/.exec(metric)?.[1];
        if (kind) p95[kind] = m['p(95)'];
      }
      dropped = summary.metrics.dropped_iterations?.count ?? 0;
      iterationsPerSecond = summary.metrics.iterations.rate;
    } catch {
      /* no summary */
    }
    log(`  k6: ${fmt(requests)} requests, ${fmt(failedRate, 1)} % failed`);
    log(`  k6 exited with ${code}${code ? ' (a threshold failed; see its summary above)' : ''}`);
    const { total, strays } = await checkIsolation(admin, spaces, users);
    log(`  isolation: ${total} contents, ${strays.length} in a wrong workspace`);
    const signIn = await signInCost();
    const minute1 = samples.find((x) => x.t >= from) ?? samples[0];
    const end = windowLast;
    if (!minute1 || end.t - minute1.t < Math.min(15_000, loadMs / 4))
      throw new Error(
        `too few samples (${samples.length}): the load ended after ${(Date.now() - t0) / 1000} s`,
      );
    log(`  RSS (MB) at ${fmt(minute1.t / 1000)} s and at ${fmt(end.t / 1000)} s:`);
    const per = Object.keys(pids)
      .map((n) => {
        const a = minute1.rss[n];
        const b = end.rss[n];
        const growth = ((b - a) / a) * 100;
        log(
          `    ${n.padEnd(12)} ${fmt(a).padStart(5)} → ${fmt(b).padStart(5)}  (${growth >= 0 ? '+' : ''}${fmt(growth, 1)} %)${judged.includes(n) ? '' : '  (not judged)'}`,
        );
        return { n, a, b, growth };
      })
      .filter((p) => judged.includes(p.n));
    // What grew in each heap, by constructor (the snapshots are large: read one pair at a time).
    const grew = {};
    log('  heap growth between the snapshots, by constructor (self size):');
    for (const n of Object.keys(first)) {
      const [a, b] = [first[n], last[n]];
      if (!a || !b) {
        log(`    ${n.padEnd(12)} no snapshot pair`);
        continue;
      }
      const g = heapGrowth(heapByConstructor(a), heapByConstructor(b));
      grew[n] = g;
      const mb = (bytes) => fmt(bytes / 1024 / 1024, 1);
      log(
        `    ${n.padEnd(12)} heap ${mb(g.totalBefore)} → ${mb(g.totalAfter)} MB; grew most: ${g.top.map((t) => `${t.name} +${fmt(t.bytes / 1024)} KB (${t.objects >= 0 ? '+' : ''}${t.objects})`).join(', ') || 'nothing'}`,
      );
    }
    clearSnapshots(heapDir);
    const biggest = per.reduce((x, y) => (y.b > x.b ? y : x));
    const fastest = per.reduce((x, y) => (y.growth > x.growth ? y : x));
    const list = (f) => per.map((p) => `${p.n} ${f(p)}`).join(', ');
    const idle = judged.map((n) => ({ n, rss: atStart[n] }));
    const idlest = idle.reduce((x, y) => (y.rss > x.rss ? y : x));
    const idlestParts = restParts[idlest.n];
    const biggestParts = await breakdown(pids[biggest.n], metricsOf(biggest.n));
    emit([
      row({
        measure:
          'memory at rest (started, before the load): largest RSS of a service or the gateway',
        value: idlest.rss,
        op: '<=',
        target: 80,
        unit: ' MB',
        digits: 0,
        detail: `${idlest.n}; all: ${idle.map((p) => `${p.n} ${fmt(p.rss)}`).join(', ')} MB; ${idlest.n}: ${describe(idlestParts)}`,
      }),
      row({
        measure: `memory under k6 load (${MINUTES} min): largest RSS of a service or the gateway at the end`,
        value: biggest.b,
        op: '<=',
        target: 120,
        unit: ' MB',
        digits: 0,
        detail: `${biggest.n}; all: ${list((p) => fmt(p.b))} MB; k6 exit ${code}, ${fmt(requests)} requests, ${fmt(failedRate, 1)} % failed; ${biggest.n} after the load: ${describe(biggestParts)}`,
      }),
      row({
        measure: `memory growth from minute ${fmt(minute1.t / 60_000, 1)} to minute ${fmt(end.t / 60_000, 1)} (largest)`,
        value: fastest.growth,
        op: '<=',
        target: 5,
        unit: ' %',
        digits: 1,
        detail: `${fastest.n}; all: ${list((p) => `${fmt(p.growth, 1)}`)} %; ${fastest.n}'s heap grew most in ${
          grew[fastest.n]?.top
            .slice(0, 2)
            .map((t) => `${t.name} (+${fmt(t.bytes / 1024)} KB)`)
            .join(', ') || '(no snapshots)'
        }`,
      }),
      row({
        measure: `load (load/mixed.js, ${MINUTES} min after a ${RAMP_S} s ramp, ${fmt(iterationsPerSecond, 1)} iterations/s, ${users.length} users in ${spaces.length} workspaces): k6 thresholds crossed`,
        value: crossed ? crossed.length : NaN,
        op: '<=',
        target: 0,
        digits: 0,
        detail: `${crossed?.length ? `${crossed.join(', ')}; ` : ''}p95 ${Object.entries(p95)
          .map(([k, v]) => `${k} ${fmt(v, 0)}`)
          .join(
            ', ',
          )} ms; a sign-in's scrypt ${fmt(signIn, 0)} ms (median of 5, the auth service's own verifyPassword, after the load)`,
      }),
      row({
        measure: 'load: dropped iterations (no virtual user free when one was due)',
        value: dropped,
        op: '<=',
        target: 0,
        digits: 0,
        detail: `${fmt(requests)} requests, ${fmt(failedRate, 1)} % failed`,
      }),
      row({
        measure: 'load: contents in a wrong workspace (or by a non-member) after the load',
        value: strays.length,
        op: '<=',
        target: 0,
        digits: 0,
        detail: `${total} contents checked through the API in ${spaces.length} workspaces`,
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
