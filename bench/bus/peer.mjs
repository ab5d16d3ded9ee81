// The other service of the bus benchmark (started by run.mjs): consumes the benchmark's
// events from a durable queue, serves request/reply `bench.echo`, and answers the same echo
// over HTTP (node:http on loopback), so both calls reach the same process doing the same work.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createBus, createLogger } = require('@aict/service-kit');
const { z } = require('zod');

const logger = createLogger('bench-bus-peer', { level: 'warn' });
const bus = await createBus({
  url: process.env.AMQP_URL,
  service: 'benchpeer',
  ...(process.env.BENCH_QUEUE_TYPE ? { queueType: process.env.BENCH_QUEUE_TYPE } : {}),
  logger,
  prefetch: Number(process.env.BENCH_PREFETCH ?? 200),
});
const Echo = z.object({ n: z.number(), text: z.string() });
const echo = (payload) => ({ n: payload.n, text: payload.text });

let consumed = 0;
await bus.subscribe({
  queue: 'events',
  exchange: 'aict.benchclient.events',
  bindings: ['bench.happened'],
  schemas: { 'bench.happened': Echo },
  handler: async () => {
    consumed += 1;
  },
});
await bus.serve('bench.echo', Echo, (payload) => echo(payload));

// The floor under request/reply: the same echo served with amqplib alone (no validation,
// context, spans or metrics), on a durable queue as the bus's, answered to direct reply-to.
const amqp = require('amqplib');
const raw = await amqp.connect(process.env.AMQP_URL, { noDelay: true });
const rawChannel = await raw.createChannel();
await rawChannel.assertQueue('bench.raw', { durable: true });
await rawChannel.prefetch(200);
await rawChannel.consume('bench.raw', (msg) => {
  const body = echo(JSON.parse(msg.content.toString('utf8')));
  rawChannel.publish(
    '',
    msg.properties.replyTo,
    Buffer.from(JSON.stringify({ ok: true, data: body })),
    {
      correlationId: msg.properties.correlationId,
      contentType: 'application/json',
    },
  );
  rawChannel.ack(msg);
});

const server = createServer((req, res) => {
  if (req.url === '/consumed') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ consumed }));
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Echo.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(echo(body)));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void raw.close().catch(() => {});
  void bus.close().then(() => process.exit(0));
});
