#!/usr/bin/env node
// Benchmark of the message bus (issue 8): RabbitMQ events with publisher confirms, and
// request/reply against an HTTP call between the same two processes.
//
//   node bench/bus/run.mjs        (or through the suite: BENCH_ONLY=bus npm run bench)
//
// This process publishes through @aict/service-kit's createBus; a second process (peer.mjs)
// consumes the events from a durable queue, serves request/reply `bench.echo` and answers
// the same echo over node:http on loopback. A RabbitMQ vhost of this run alone.
//
//   events         BENCH_EVENTS (20 000) per round, publishMany in batches of BENCH_BATCH
//                  (1 000), each batch confirmed before the next: confirmed events/s; also
//                  how long until the peer consumed them all (delivered/s, end to end).
//   request/reply  BENCH_CALLS (1 000) calls one after the other, then the same number of
//                  HTTP POSTs (keep-alive) with the same payload; the order alternates per
//                  round; median latency of each and their ratio.
// Medians over BENCH_ROUNDS (5) rounds.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import http from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../../infra/lib/paths.mjs';
import { buildWorkspaces, emit, fmt, log, median, privateVhost, row } from '../lib/report.mjs';

const require = createRequire(import.meta.url);

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 1_000);

function startPeer(amqpUrl) {
  const child = spawn(process.execPath, [join(ROOT, 'bench/bus/peer.mjs')], {
    cwd: ROOT,
    env: { ...process.env, AMQP_URL: amqpUrl, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, port: JSON.parse(line).port });
    });
    child.once('exit', (code) => reject(new Error(`the peer exited (${code})`)));
  });
}

async function main() {
  log('bus benchmark: events with confirms; request/reply vs HTTP between the same services');
  await buildWorkspaces(ROOT, ['@aict/contracts', '@aict/service-kit']);
  const { createBus, createLogger } = require('@aict/service-kit');
  const vhost = await privateVhost('bus');
  let peer;
  let bus;
  try {
    peer = await startPeer(vhost.url);
    bus = await createBus({
      url: vhost.url,
      service: 'benchclient',
      ...(process.env.BENCH_QUEUE_TYPE ? { queueType: process.env.BENCH_QUEUE_TYPE } : {}),
      logger: createLogger('bench-bus', { level: 'warn' }),
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const consumed = async () =>
      (await (await fetch(`http://127.0.0.1:${peer.port}/consumed`)).json()).consumed;
    const payload = (n) => ({ n, text: 'a short payload like an event or a call carries' });

    const httpCall = (body) =>
      new Promise((resolve, reject) => {
        const data = JSON.stringify(body);
        const req = http.request(
          {
            host: '127.0.0.1',
            port: peer.port,
            path: '/echo',
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(data),
            },
          },
          (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          },
        );
        req.on('error', reject);
        req.end(data);
      });
    const rpcCall = (body) => bus.request('bench.echo', body, { timeoutMs: 5000 });
    // The floor: amqplib alone, the same message shape, to the peer's raw echo.
    const rawConnection = await require('amqplib').connect(vhost.url, { noDelay: true });
    const rawChannel = await rawConnection.createChannel();
    const rawPending = new Map();
    let rawId = 0;
    await rawChannel.consume(
      'amq.rabbitmq.reply-to',
      (msg) => {
        const done = rawPending.get(msg.properties.correlationId);
        rawPending.delete(msg.properties.correlationId);
        done?.(JSON.parse(msg.content.toString('utf8')).data);
      },
      { noAck: true },
    );
    const rawCall = (body) =>
      new Promise((resolve) => {
        const correlationId = String(++rawId);
        rawPending.set(correlationId, resolve);
        rawChannel.publish('', 'bench.raw', Buffer.from(JSON.stringify(body)), {
          correlationId,
          replyTo: 'amq.rabbitmq.reply-to',
          contentType: 'application/json',
          expiration: '5000',
          mandatory: true,
          headers: { 'x-request-id': 'a'.repeat(32) },
        });
      });
    const calls = { rpc: rpcCall, http: httpCall, raw: rawCall };

    async function latencies(call) {
      const times = [];
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        const answer = await call(payload(i));
        times.push(performance.now() - t);
        if (answer.n !== i) throw new Error(`wrong answer ${JSON.stringify(answer)} to call ${i}`);
      }
      return median(times);
    }

    // Warm-up of both paths and the queue.
    await latencies(rpcCall);
    await latencies(httpCall);
    await latencies(rawCall);
    await bus.publishMany(
      Array.from({ length: BATCH }, (_, i) => ({ type: 'bench.happened', data: payload(i) })),
    );

    log(
      `  ${ROUNDS} rounds; ${EVENTS} events per round in batches of ${BATCH}; ${CALLS} calls per path`,
    );
    log(
      '  round  confirmed ev/s  delivered ev/s  rpc p50 ms  http p50 ms  ratio  amqplib alone p50 ms',
    );
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const before = await consumed();
      const t0 = performance.now();
      for (let sent = 0; sent < EVENTS; sent += BATCH) {
        const items = Array.from({ length: Math.min(BATCH, EVENTS - sent) }, (_, i) => ({
          type: 'bench.happened',
          data: payload(sent + i),
        }));
        await bus.publishMany(items);
      }
      const confirmedMs = performance.now() - t0;
      const deadline = Date.now() + 120_000;
      while ((await consumed()) - before < EVENTS && Date.now() < deadline) await sleep(20);
      const deliveredMs = performance.now() - t0;
      const delivered = (await consumed()) - before;

      const order = [
        ['rpc', 'raw', 'http'],
        ['http', 'rpc', 'raw'],
        ['raw', 'http', 'rpc'],
      ][round % 3];
      const p50 = {};
      for (const which of order) p50[which] = await latencies(calls[which]);
      const r = {
        confirmed: (EVENTS / confirmedMs) * 1000,
        delivered: delivered < EVENTS ? NaN : (EVENTS / deliveredMs) * 1000,
        rpc: p50.rpc,
        http: p50.http,
        raw: p50.raw,
        ratio: p50.rpc / p50.http,
        rawRatio: p50.raw / p50.http,
      };
      rounds.push(r);
      log(
        `  ${String(round).padStart(5)}  ${fmt(r.confirmed).padStart(14)}  ${fmt(r.delivered).padStart(14)}  ${fmt(r.rpc, 3).padStart(10)}  ${fmt(r.http, 3).padStart(11)}  ${fmt(r.ratio, 2).padStart(5)}  ${fmt(r.raw, 3).padStart(20)}`,
      );
    }
    const m = (k) => median(rounds.map((r) => r[k]));
    emit([
      row({
        measure: 'RabbitMQ events with confirms (publishMany)',
        value: m('confirmed'),
        op: '>=',
        target: 5000,
        unit: ' ev/s',
        digits: 0,
        detail: `confirmed ${fmt(m('confirmed'))} ev/s; consumed by the peer ${fmt(m('delivered'))} ev/s end to end`,
      }),
      row({
        measure: 'request/reply median (same two processes)',
        value: m('rpc'),
        op: '<=',
        target: 0.3,
        unit: ' ms',
        digits: 3,
        detail: `HTTP call ${fmt(m('http'), 3)} ms`,
      }),
      row({
        measure: 'request/reply median ÷ HTTP call median (same two processes)',
        value: m('ratio'),
        op: '<=',
        target: 2,
        unit: 'x',
        detail: `request/reply ${fmt(m('rpc'), 3)} ms, HTTP ${fmt(m('http'), 3)} ms`,
      }),
      {
        measure: 'request/reply floor: amqplib alone, same queue kind and message shape',
        value: m('raw'),
        figure: `${fmt(m('raw'), 3)} ms`,
        target: '–',
        result: 'info',
        detail: `${fmt(m('rawRatio'), 2)}x the HTTP call; the bus adds ${fmt(m('rpc') - m('raw'), 3)} ms (validation, context, spans, metrics, timeout)`,
      },
    ]);
    agent.destroy();
    await rawConnection.close().catch(() => {});
  } finally {
    await bus?.close();
    if (peer && peer.child.exitCode === null) {
      const exited = new Promise((r) => peer.child.once('exit', r));
      peer.child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (peer.child.exitCode === null) peer.child.kill('SIGKILL');
    }
    await vhost.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bus benchmark failed: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
