#!/usr/bin/env node
// Benchmark of streaming (issue 8): time to first token through the gateway and the
// generation service against the provider simulator called straight, and 200 streams at once.
//
//   node bench/streaming/run.mjs     (or: BENCH_ONLY=streaming npm run bench)
//
// The stack (bench profile, fresh databases, own vhost) with the simulator pacing a realistic
// provider (load/run.mjs REALISTIC_PROVIDER). As the super administrator: a provider key and
// a workspace with a default chat prompt (load/run.mjs prepare). Then:
//   time to first token  BENCH_STREAMS (15) streams one after the other per path and round,
//                        BENCH_ROUNDS (3) rounds, order alternating: POST /api/generate with
//                        Accept: text/event-stream until its first `delta` event, against
//                        POST /v1/chat/completions (stream) on the simulator until its first
//                        chunk with text; each stream is read to its end. Medians.
//   concurrency          BENCH_CONCURRENT (500) streams through the gateway at once, 4 per
//                        workspace (the per-workspace cap); an error is a non-200 answer, an
//                        `error` event, or a stream without `done`. Each workspace has
//                        generated once before (warm). The same number of streams straight to
//                        the simulator at once gives the provider side's p95 at that
//                        concurrency on this machine; the gateway's p95 less that is the added p95.
//   cost per generation  BENCH_COST_GENERATIONS (100) more through the gateway, 4 at a time, to
//                        warm workspaces: the CPU time each process of the product used
//                        (/proc/<pid>/stat, between two quiet moments: no document command
//                        for a second, so the concurrency run's backlog is not counted; idle work over
//                        the phase included) and the MongoDB
//                        commands the generation and content services sent (their
//                        mongodb_command_duration_seconds counts), per generation. Reported
//                        (not judged): what the concurrency row's backlog is made of.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT } from '../../infra/lib/paths.mjs';
import { infraSettings } from '../../infra/lib/servers.mjs';
import { performance } from 'node:perf_hooks';
import { REALISTIC_PROVIDER, prepare } from '../../load/run.mjs';
import { buildAll, emit, fmt, log, median, row } from '../lib/report.mjs';
import { holdBenchLock, signIn, startBenchStack } from '../lib/stack.mjs';

holdBenchLock();

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 15);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 500);
/**
 * Streams per workspace in the concurrency run: a workspace runs 4 generations at once per
 * replica (GENERATION_MAX_CONCURRENT_PER_WORKSPACE, the noisy-neighbour cap), so the streams
 * are spread over as many workspaces as that takes, as many teams at once would be.
 */
const PER_WORKSPACE = Number(process.env.BENCH_STREAMS_PER_WORKSPACE ?? 4);
const COST_GENERATIONS = Number(process.env.BENCH_COST_GENERATIONS ?? 100);
const KEY = 'sk-load-test-key';

/** CPU time (user + system) a process has used, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

/**
 * The FerretDB server's pid (the local document store the stack runs on: its CPU is the
 * database's share of a generation), or null when it is not ours (e.g. a MongoDB).
 */
function ferretPid() {
  const { host, port } = infraSettings().ferret;
  try {
    const pids = execFileSync('pgrep', ['-f', `ferretdb.* -listen ${host}:${port}`], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .map(Number);
    return pids.length === 1 ? pids[0] : null;
  } catch {
    return null; // pgrep exits 1 when nothing matches
  }
}

/** A service's MongoDB commands so far, by command name (its Prometheus metrics). */
async function mongoCommands(serviceUrl) {
  const text = await (await fetch(`${serviceUrl}/metrics`)).text();
  const counts = {};
  for (const line of text.split('\n')) {
    const m = /^mongodb_command_duration_seconds_count\{command="(\w+)",result="ok"\} (\d+)/.exec(
      line,
    );
    if (m) counts[m[1]] = (counts[m[1]] ?? 0) + Number(m[2]);
  }
  return counts;
}

/** Reads an SSE answer to its end; ms until `firstWhen(chunkText)` first held, and the text. */
async function readStream(res, started, firstWhen) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let first = NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (Number.isNaN(first) && firstWhen(text)) first = performance.now() - started;
  }
  return { first, text };
}

async function main() {
  log(
    'streaming benchmark: time to first token via gateway + generation vs the simulator straight',
  );
  await buildAll(ROOT);
  const stack = await startBenchStack('stream');
  try {
    await fetch(`${stack.simulatorUrl}/__sim/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(REALISTIC_PROVIDER),
    });
    const { spaces } = await prepare(stack, {
      workspaces: 1 + Math.ceil(CONCURRENT / PER_WORKSPACE),
      users: 0,
    });
    const space = spaces[0];
    const cookie = await signIn(stack.url, stack.superAdmin);

    let n = 0;
    const viaGateway = async (into = space) => {
      n += 1;
      const started = performance.now();
      const res = await fetch(`${stack.url}/api/generate`, {
        method: 'POST',
        headers: {
          cookie,
          accept: 'text/event-stream',
          'content-type': 'application/json',
          'x-workspace-id': String(into.id),
        },
        body: JSON.stringify({
          promptId: into.chat,
          inputs: { message: `Hello number ${n}` },
          language: 'en',
          workspaceId: into.id,
          attachments: [],
        }),
      });
      if (res.status !== 200 || !res.headers.get('content-type')?.includes('text/event-stream'))
        return { ok: false, why: `${res.status} ${(await res.text()).slice(0, 200)}` };
      const { first, text } = await readStream(res, started, (t) => t.includes('event: delta'));
      const ok = text.includes('event: done') && !text.includes('event: error');
      return { ok, first, why: ok ? '' : text.slice(-300) };
    };
    const straight = async () => {
      n += 1;
      const started = performance.now();
      const res = await fetch(`${stack.simulatorUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-4o',
          stream: true,
          messages: [{ role: 'user', content: `Hello number ${n}` }],
        }),
      });
      if (res.status !== 200) return { ok: false, why: `${res.status}` };
      const { first, text } = await readStream(res, started, (t) => /"content":"[^"]/.test(t));
      return { ok: text.includes('[DONE]'), first };
    };

    // Both paths stream before anything is measured (and warm up).
    for (const [name, call] of [
      ['gateway', viaGateway],
      ['simulator', straight],
    ]) {
      const r = await call();
      if (!r.ok) throw new Error(`the ${name} path does not stream: ${r.why}`);
    }
    log(`  simulator: ${JSON.stringify(REALISTIC_PROVIDER)}`);
    log(`  ${ROUNDS} rounds of ${STREAMS} streams per path, one at a time`);
    log('  round  simulator TTFT ms  gateway TTFT ms  added ms');
    const rounds = [];
    let errors = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const t = {};
      for (const which of round % 2 ? ['straight', 'gateway'] : ['gateway', 'straight']) {
        const firsts = [];
        for (let i = 0; i < STREAMS; i++) {
          const r = await (which === 'gateway' ? viaGateway() : straight());
          if (!r.ok) errors += 1;
          firsts.push(r.first);
        }
        t[which] = median(firsts);
      }
      const x = { straight: t.straight, gateway: t.gateway, added: t.gateway - t.straight };
      rounds.push(x);
      log(
        `  ${String(round).padStart(5)}  ${fmt(x.straight, 1).padStart(17)}  ${fmt(x.gateway, 1).padStart(15)}  ${fmt(x.added, 1).padStart(8)}`,
      );
    }
    if (errors) log(`  ! ${errors} streams failed during the time-to-first-token rounds`);

    // Each workspace of the concurrency phase has generated once before (its prompt, provider
    // configuration and memberships are cached, as for a team at work): the phase times warm
    // generations, as the target does.
    const busy = spaces.slice(1, 1 + Math.ceil(CONCURRENT / PER_WORKSPACE));
    for (let i = 0; i < busy.length; i += 8)
      await Promise.all(busy.slice(i, i + 8).map((ws) => viaGateway(ws)));
    /** CONCURRENT streams at once on one path: wall time, failures, TTFT median and p95. */
    const atOnce = async (call) => {
      const t0 = performance.now();
      const results = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          call(i).catch((err) => ({ ok: false, why: err.message })),
        ),
      );
      const firsts = results.filter((r) => r.ok).map((r) => r.first);
      const sorted = [...firsts].sort((a, b) => a - b);
      return {
        wall: performance.now() - t0,
        failed: results.filter((r) => !r.ok),
        median: median(firsts),
        p95: sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)],
      };
    };
    // The same number of streams straight to the simulator: what the provider side itself
    // takes at that concurrency on this machine (the simulator shares its CPUs).
    log(`  ${CONCURRENT} streams straight to the simulator at once …`);
    const direct = await atOnce(() => straight());
    log(
      `  done in ${fmt(direct.wall / 1000, 1)} s; ${direct.failed.length} failed; TTFT median ${fmt(direct.median, 0)} ms, p95 ${fmt(direct.p95, 0)} ms`,
    );
    log(`  ${CONCURRENT} streams through the gateway at once …`);
    const gw = await atOnce((i) => viaGateway(busy[Math.floor(i / PER_WORKSPACE)]));
    const { wall, failed } = gw;
    log(
      `  done in ${fmt(wall / 1000, 1)} s; ${failed.length} failed; TTFT median ${fmt(gw.median, 0)} ms, p95 ${fmt(gw.p95, 0)} ms`,
    );
    for (const f of failed.slice(0, 3)) log(`    ${f.why}`);

    // What one generation costs the product: CPU per process and document commands.
    const costSpaces = busy.slice(0, 4);
    const pids = Object.fromEntries(
      Object.entries(stack.pids()).filter(([name]) => name !== 'provider-sim'),
    );
    const dbServices = ['generation', 'content'];
    /**
     * Until neither service sent a document command for a second (at most 60 s): the work the
     * concurrency run queued (content stores, tallies, outbox relays) is not this phase's.
     */
    const quiet = async () => {
      const total = async () =>
        (await Promise.all(dbServices.map((n) => mongoCommands(stack.services[n]))))
          .flatMap((counts) => Object.values(counts))
          .reduce((a, b) => a + b, 0);
      const deadline = Date.now() + 60_000;
      let before = await total();
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 1000));
        const now = await total();
        if (now === before) return;
        before = now;
      }
    };
    const ferret = ferretPid();
    await quiet();
    const cpu0 = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuMs(pid)]));
    const ferret0 = ferret && cpuMs(ferret);
    const db0 = await Promise.all(dbServices.map((n) => mongoCommands(stack.services[n])));
    let costFailed = 0;
    for (let i = 0; i < COST_GENERATIONS; i += costSpaces.length)
      costFailed += (await Promise.all(costSpaces.map((ws) => viaGateway(ws)))).filter(
        (r) => !r.ok,
      ).length;
    await quiet(); // outbox relays, consumers, tallies
    const cpu1 = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuMs(pid)]));
    const ferretPer = ferret ? (cpuMs(ferret) - ferret0) / (COST_GENERATIONS - costFailed) : null;
    const db1 = await Promise.all(dbServices.map((n) => mongoCommands(stack.services[n])));
    const made = COST_GENERATIONS - costFailed;
    const cpuPer = Object.fromEntries(
      Object.keys(pids).map((n) => [n, (cpu1[n] - cpu0[n]) / made]),
    );
    const cpuTotal = Object.values(cpuPer).reduce((a, b) => a + b, 0);
    const dbPer = dbServices.map((n, i) => {
      const per = Object.fromEntries(
        Object.keys(db1[i])
          .map((c) => [c, (db1[i][c] - (db0[i][c] ?? 0)) / made])
          .filter(([, v]) => v >= 0.05), // start-up commands (indexes, pings) are not per generation
      );
      return { n, per, total: Object.values(per).reduce((a, b) => a + b, 0) };
    });
    log(
      `  cost per generation (${made} generations, 4 at a time): CPU ms ${Object.entries(cpuPer)
        .map(([n, v]) => `${n} ${fmt(v, 1)}`)
        .join(', ')}`,
    );
    for (const { n, per, total } of dbPer)
      log(
        `    ${n}: ${fmt(total, 1)} MongoDB commands (${Object.entries(per)
          .map(([c, v]) => `${c} ${fmt(v, 1)}`)
          .join(', ')})`,
      );

    const m = (k) => median(rounds.map((r) => r[k]));
    emit([
      row({
        measure: 'streaming: time to first token added by gateway + generation service (median)',
        value: m('added'),
        op: '<=',
        target: 3,
        unit: ' ms',
        digits: 1,
        detail: `${fmt(m('gateway'), 1)} vs ${fmt(m('straight'), 1)} ms (simulator TTFT ${REALISTIC_PROVIDER.timeToFirstTokenMs} ms + latency ${REALISTIC_PROVIDER.latencyMs} ms)`,
      }),
      row({
        measure: `streaming: ${CONCURRENT} concurrent streams through the gateway, errors`,
        value: failed.length,
        op: '<=',
        target: 0,
        digits: 0,
        detail: `all done in ${fmt(wall / 1000, 1)} s; their TTFT median ${fmt(gw.median, 0)} ms`,
      }),
      row({
        measure: `streaming: ${CONCURRENT} concurrent streams, TTFT added (p95)`,
        value: gw.p95 - direct.p95,
        op: '<=',
        target: 20,
        unit: ' ms',
        digits: 1,
        detail: `p95 ${fmt(gw.p95, 0)} ms through the gateway vs ${fmt(direct.p95, 0)} ms for ${CONCURRENT} straight to the simulator at once`,
      }),
      {
        measure: 'streaming: CPU per generation, every process of the product (not FerretDB)',
        value: cpuTotal,
        figure: `${fmt(cpuTotal, 1)} ms`,
        target: '–',
        result: 'info',
        detail: Object.entries(cpuPer)
          .sort((a, b) => b[1] - a[1])
          .map(([n, v]) => `${n} ${fmt(v, 1)}`)
          .join(', '),
      },
      {
        measure: 'streaming: FerretDB CPU per generation (the local document store)',
        value: ferretPer ?? NaN,
        figure: ferretPer === null ? '–' : `${fmt(ferretPer, 1)} ms`,
        target: '–',
        result: 'info',
        detail:
          ferretPer === null
            ? 'not measured: no FerretDB of this project at the configured address'
            : 'its process, between the same two quiet moments (other databases on it idle)',
      },
      {
        measure: 'streaming: MongoDB commands per generation (generation + content services)',
        value: dbPer.reduce((a, b) => a + b.total, 0),
        figure: fmt(
          dbPer.reduce((a, b) => a + b.total, 0),
          1,
        ),
        target: '–',
        result: 'info',
        detail: dbPer
          .map(
            ({ n, per }) =>
              `${n}: ${Object.entries(per)
                .map(([c, v]) => `${c} ${fmt(v, 1)}`)
                .join(', ')}`,
          )
          .join('; '),
      },
    ]);
  } finally {
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`streaming benchmark failed: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
