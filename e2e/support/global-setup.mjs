import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DATA_DIR } from '../../infra/lib/paths.mjs';
import { startStack } from '../../scripts/lib/stack.mjs';

/**
 * Lets a test kill and restart a process of the stack (e2e/fault.e2e.ts): jest runs the
 * tests in another realm, where the stack's process handles do not exist.
 * POST /kill?name=content, POST /restart?name=content (answers when it is ready again).
 */
function startControl(stack) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://control');
    const name = url.searchParams.get('name');
    try {
      if (req.method !== 'POST' || !name) throw new Error('POST /kill|/restart?name=');
      if (url.pathname === '/kill') await stack.kill(name);
      else if (url.pathname === '/restart') await stack.restart(name);
      else throw new Error(`unknown ${url.pathname}`);
      res.writeHead(204).end();
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err.message));
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export default async function globalSetup() {
  // A fresh set of databases per run, so runs never see each other's data.
  const stack = await startStack({
    profile: 'e2e',
    simulator: true,
    dbSuffix: `${Date.now().toString(36)}`,
  });
  const control = await startControl(stack);
  globalThis.__AICT_STACK__ = stack;
  globalThis.__AICT_STACK_CONTROL__ = control;
  const { stop: _stop, kill: _kill, restart: _restart, pids: _pids, ...info } = stack;
  info.controlUrl = `http://127.0.0.1:${control.address().port}`;
  writeFileSync(join(DATA_DIR, 'e2e-stack.json'), JSON.stringify(info, null, 2));
  process.env.AICT_E2E_STACK = JSON.stringify(info);
}
