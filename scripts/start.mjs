#!/usr/bin/env node
// npm start: set up (install, build, infrastructure), then run every service, the
// gateway and the front-ends, and say where to go and how to sign in.
import { setup } from './setup.mjs';
import { startStack } from './lib/stack.mjs';
import { seedSimulator, startMessage } from './lib/dev-provider.mjs';
import { useProjectNode } from '../infra/lib/node-runtime.mjs';

await useProjectNode();

const simulator = process.env.AICT_PROVIDER === 'simulator' || process.argv.includes('--simulator');

try {
  await setup();
  const stack = await startStack({ profile: 'dev', simulator });
  // with the simulator a newcomer can chat at once: a development key and a default prompt
  let seeded;
  if (simulator) {
    try {
      seeded = await seedSimulator({ url: stack.url, ...stack.superAdmin });
    } catch (err) {
      console.warn(`The simulator was not set up for chat: ${err.message}`);
    }
  }
  console.log(startMessage({ ...stack, simulator, seeded }));
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
