#!/usr/bin/env node
// npm start: set up (install, build, infrastructure), then run every service, the
// gateway and the front-ends, and say where to go and how to sign in.
import { setup } from './setup.mjs';
import { startStack } from './lib/stack.mjs';
import { useProjectNode } from '../infra/lib/node-runtime.mjs';

await useProjectNode();

const simulator = process.env.AICT_PROVIDER === 'simulator' || process.argv.includes('--simulator');

try {
  await setup();
  const stack = await startStack({ profile: 'dev', simulator });
  console.log(`
  The product is running at ${stack.url}

  Sign in as the super administrator:
    username  ${stack.superAdmin.username}
    password  ${stack.superAdmin.password}
  (generated once for this checkout and kept in .data/secrets.json)

  AI provider: ${stack.providerUrl}${simulator ? ' (the local simulator)' : ''}
  Logs: .data/logs/dev-*.log    Stop: Ctrl+C
`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log('stopping...');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (err) {
  console.error(`npm start failed: ${err.message}`);
  process.exit(1);
}
