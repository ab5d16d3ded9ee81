#!/usr/bin/env node
// Builds every workspace that has a build script: Node packages (swc, in parallel)
// then the front-ends (rspack, one at a time: each uses every core).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../infra/lib/paths.mjs';
import { capture, pool, seconds } from './lib/run.mjs';
import { useProjectNode } from '../infra/lib/node-runtime.mjs';

function workspaces() {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages)
    .filter(([path, p]) => path && !path.includes('node_modules') && p.name !== undefined)
    .map(([path]) => ({
      path,
      pkg: JSON.parse(readFileSync(join(ROOT, path, 'package.json'), 'utf8')),
    }))
    .filter(({ pkg }) => pkg.scripts?.build);
}

async function buildOne({ path, pkg }) {
  const t = Date.now();
  const { code, output } = await capture('npm', ['run', 'build', '--silent'], {
    cwd: join(ROOT, path),
  });
  if (code !== 0) throw new Error(`build of ${pkg.name} (${path}) failed:\n${output.slice(-4000)}`);
  return `${pkg.name} ${seconds(t)}`;
}

export async function build() {
  const all = workspaces();
  const node = all.filter(({ pkg }) => !pkg.scripts.build.startsWith('rspack'));
  const web = all.filter(({ pkg }) => pkg.scripts.build.startsWith('rspack'));
  const done = [...(await pool(node, 2, buildOne)), ...(await pool(web, 1, buildOne))];
  console.log(`build: ${done.join(', ')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await useProjectNode();
  const t = Date.now();
  build()
    .then(() => console.log(`build: done in ${seconds(t)}`))
    .catch((err) => {
      console.error(err.message);
      process.exit(1);
    });
}
