// The stack of e2e/infra-fault.e2e.ts, run as a child process of the test: private
// FerretDB, MinIO and RabbitMQ (infra/lib/private.mjs) and the product on the
// `infraFault` profile (gateway 29080, services 291xx, simulator 29190). Prints one JSON
// line with the stack's addresses and a control URL, then answers:
//   POST /stop?part=ferret|minio|rabbit   stops that server (its data stays)
//   POST /start?part=ferret|minio|rabbit  starts it again; answers once it listens
//   POST /close                           stops everything and exits
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DATA_DIR } from '../../infra/lib/paths.mjs';
import { startPrivateInfra } from '../../infra/lib/private.mjs';
import { startStack } from '../../scripts/lib/stack.mjs';

const infra = await startPrivateInfra({ dir: join(DATA_DIR, 'infra-fault') });
let stack;
try {
  stack = await startStack({
    profile: 'infraFault',
    simulator: true,
    infra: infra.settings,
  });
} catch (err) {
  await infra.close();
  console.error(err.message);
  process.exit(1);
}

async function closeAll() {
  await stack.stop().catch(() => undefined);
  await infra.close();
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://control');
  const part = url.searchParams.get('part');
  try {
    if (req.method !== 'POST') throw new Error('POST only');
    if (url.pathname === '/close') {
      await closeAll();
      res.writeHead(204).end();
      server.close();
      setTimeout(() => process.exit(0), 100);
      return;
    }
    if (!['ferret', 'minio', 'rabbit'].includes(part)) throw new Error(`unknown part ${part}`);
    if (url.pathname === '/stop') await infra.stop(part);
    else if (url.pathname === '/start') await infra.start(part);
    else throw new Error(`unknown ${url.pathname}`);
    res.writeHead(204).end();
  } catch (err) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err.message));
  }
});

server.listen(0, '127.0.0.1', () => {
  const { stop: _s, kill: _k, restart: _r, pids: _p, ...info } = stack;
  info.controlUrl = `http://127.0.0.1:${server.address().port}`;
  info.infra = infra.settings;
  process.stdout.write(`${JSON.stringify(info)}\n`);
});

// The test process went away without /close: stop everything.
process.stdin.on('end', () => void closeAll().then(() => process.exit(0)));
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () => void closeAll().then(() => process.exit(0)));
