import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from '../../infra/lib/paths.mjs';
import { startStack } from '../../scripts/lib/stack.mjs';

export default async function globalSetup() {
  // A fresh set of databases per run, so runs never see each other's data.
  const stack = await startStack({
    profile: 'e2e',
    simulator: true,
    dbSuffix: `${Date.now().toString(36)}`,
  });
  globalThis.__AICT_STACK__ = stack;
  const { stop: _stop, ...info } = stack;
  writeFileSync(join(DATA_DIR, 'e2e-stack.json'), JSON.stringify(info, null, 2));
  process.env.AICT_E2E_STACK = JSON.stringify(info);
}
