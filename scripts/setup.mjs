#!/usr/bin/env node
// The set-up shared by `npm start` and `npm test`: install what is missing, build,
// bring up the infrastructure. Uses Node built-ins only (it runs before `npm ci`).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../infra/lib/paths.mjs';
import {
  ensureComposeValidator,
  ensureKubectlValidate,
  ensureKustomize,
} from '../infra/lib/binaries.mjs';
import { infraUp } from '../infra/lib/servers.mjs';
import { build } from './build.mjs';
import { capture, must, seconds } from './lib/run.mjs';
import { NODE_VERSION, useProjectNode } from '../infra/lib/node-runtime.mjs';

/** The entry scripts run themselves on the pinned Node (scripts/lib/node-runtime.mjs). */
function checkNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < Number(NODE_VERSION.split('.')[0]))
    throw new Error(
      `Node ${process.versions.node} is too old: this project runs on Node ${NODE_VERSION} (call useProjectNode() first).`,
    );
}

/**
 * Installs the lockfile's versions when node_modules is missing or older than the
 * lockfile. `npm install` rather than `npm ci`: npm 11's `npm ci` refuses a lockfile
 * that lacks other platforms' optional builds, which registry mirrors may not carry.
 */
async function installDependencies() {
  const lockHash = () =>
    createHash('sha256')
      .update(readFileSync(join(ROOT, 'package-lock.json')))
      .digest('hex');
  const stamp = join(ROOT, 'node_modules', '.aict-lock-hash');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash()) return 'up to date';
  await must('npm', ['install', '--no-audit', '--no-fund'], { cwd: ROOT });
  writeFileSync(stamp, lockHash());
  return 'installed';
}

/** Debian's Chromium for the browser tests (playwright-core drives it). */
export async function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return 'present';
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let r = await capture('apt-get', ['install', '-y', 'chromium'], { env });
  if (r.code !== 0) {
    await capture('apt-get', ['update'], { env });
    r = await capture('apt-get', ['install', '-y', 'chromium'], { env });
  }
  if (r.code !== 0) throw new Error(`could not install chromium:\n${r.output.slice(-2000)}`);
  return 'installed';
}

/** The offline validators of the deployment files (deploy/*.test.ts), built once and cached. */
async function ensureValidators() {
  await ensureKustomize();
  await ensureComposeValidator();
  await ensureKubectlValidate();
  return 'ready';
}

/**
 * @param {{ browser?: boolean, validators?: boolean }} options browser: Chromium for the
 *   end-to-end tests; validators: the deployment validators for the deployment tests.
 */
export async function setup({ browser = false, validators = false } = {}) {
  checkNode();
  const t0 = Date.now();
  const deps = await installDependencies();
  console.log(`setup: dependencies ${deps} (${seconds(t0)})`);
  const t1 = Date.now();
  // Infrastructure (may build binaries the first time) runs while we build the code.
  const infra = infraUp();
  const chromium = browser ? ensureChromium() : Promise.resolve('not needed');
  const tools = validators ? ensureValidators() : Promise.resolve('not needed');
  infra.catch(() => {});
  chromium.catch(() => {});
  tools.catch(() => {});
  await build();
  console.log(`setup: build done (${seconds(t1)})`);
  const status = await infra;
  console.log(
    `setup: infrastructure ready (${Object.entries(status)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );
  console.log(`setup: chromium ${await chromium}`);
  console.log(`setup: deployment validators ${await tools}`);
  console.log(`setup: done in ${seconds(t0)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await useProjectNode();
  setup({
    browser: process.argv.includes('--browser'),
    validators: process.argv.includes('--validators'),
  }).catch((err) => {
    console.error(`setup failed: ${err.message}`);
    process.exit(1);
  });
}
