// Builds the local servers' binaries once and caches them under CACHE_DIR/bin,
// named by version (and, for our own launcher, by a hash of its sources).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  mkdtempSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, ROOT } from './paths.mjs';
import { withLock } from './lock.mjs';

export const VERSIONS = {
  ferretdb: 'v1.24.2',
  minio: 'v0.0.0-20260212201848-7aac2a2c5b7c',
  k6: 'v1.8.1',
  composeGo: 'v2.16.2',
  kustomize: 'v5.8.2',
  kubectlValidate: 'v0.0.4',
};

const BIN_DIR = join(CACHE_DIR, 'bin');

function sourceHash(dir) {
  const h = createHash('sha256');
  for (const f of readdirSync(dir).sort()) {
    if (/\.(go|mod|sum|json)$/.test(f)) h.update(f).update(readFileSync(join(dir, f)));
  }
  return h.digest('hex').slice(0, 12);
}

function run(cmd, args, opts) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (err) =>
      reject(new Error(`${cmd} could not start (${err.message}); is Go installed and on PATH?`)),
    );
    child.on('close', (code) =>
      code === 0
        ? resolvePromise(out)
        : reject(new Error(`${cmd} ${args.join(' ')} failed:\n${out.slice(-4000)}`)),
    );
  });
}

async function ensure(name, file, build) {
  const target = join(BIN_DIR, file);
  if (existsSync(target)) return target;
  mkdirSync(BIN_DIR, { recursive: true });
  const lock = join(CACHE_DIR, `build-${name}.lock`);
  return withLock(
    lock,
    async () => {
      if (existsSync(target)) return target; // built by someone else while we waited
      const started = Date.now();
      process.stdout.write(`infra: building ${name} (${file}), cached for next time...\n`);
      const tmp = mkdtempSync(join(BIN_DIR, `.${name}-`));
      try {
        await build(tmp);
        renameSync(join(tmp, name), target);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
      process.stdout.write(
        `infra: built ${name} in ${Math.round((Date.now() - started) / 1000)} s\n`,
      );
      return target;
    },
    { what: `the build of ${name} by another run` },
  );
}

const goEnv = (extra = {}) => ({ ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod', ...extra });

/**
 * Our FerretDB launcher (embeds github.com/FerretDB/FerretDB/ferretdb), built against a copy of
 * the FerretDB module with the patches of infra/ferretdb/patches.json applied (each must match
 * exactly once, or the build stops).
 */
export function ensureFerretDB() {
  const dir = join(ROOT, 'infra', 'ferretdb');
  const file = `ferretdb-${VERSIONS.ferretdb}-${sourceHash(dir)}`;
  return ensure('ferretdb', file, async (tmp) => {
    const { module, patches } = JSON.parse(readFileSync(join(dir, 'patches.json'), 'utf8'));
    const info = JSON.parse(
      await run('go', ['mod', 'download', '-json', `${module}@${VERSIONS.ferretdb}`], {
        cwd: dir,
        env: goEnv(),
      }),
    );
    const patched = join(tmp, 'module');
    cpSync(info.Dir, patched, { recursive: true });
    for (const patch of patches) {
      const target = join(patched, patch.file);
      chmodSync(target, 0o644);
      const text = readFileSync(target, 'utf8');
      if (text.split(patch.from).length !== 2)
        throw new Error(`FerretDB patch does not apply to ${patch.file}: ${patch.from}`);
      writeFileSync(target, text.replace(patch.from, patch.to));
    }
    const launcher = join(tmp, 'launcher');
    mkdirSync(launcher);
    for (const f of ['main.go', 'go.mod', 'go.sum']) cpSync(join(dir, f), join(launcher, f));
    writeFileSync(
      join(launcher, 'go.mod'),
      `${readFileSync(join(dir, 'go.mod'), 'utf8')}\nreplace ${module} => ${patched}\n`,
    );
    await run('go', ['build', '-trimpath', '-o', join(tmp, 'ferretdb'), '.'], {
      cwd: launcher,
      env: goEnv(),
    });
    // Module files are read-only: make the copy removable.
    await run('chmod', ['-R', 'u+w', patched], {});
  });
}

export function ensureMinio() {
  return ensure('minio', `minio-${VERSIONS.minio}`, (tmp) =>
    run('go', ['install', `github.com/minio/minio@${VERSIONS.minio}`], {
      env: goEnv({ GOBIN: tmp, GOFLAGS: '' }),
    }),
  );
}

export function ensureK6() {
  return ensure('k6', `k6-${VERSIONS.k6}`, (tmp) =>
    run('go', ['install', `go.k6.io/k6@${VERSIONS.k6}`], {
      env: goEnv({ GOBIN: tmp, GOFLAGS: '' }),
    }),
  );
}

/** The compose-file validator (compose-go), used by the deployment tests. */
export function ensureComposeValidator() {
  const dir = join(ROOT, 'infra', 'compose-validate');
  const file = `compose-validate-${VERSIONS.composeGo}-${sourceHash(dir)}`;
  return ensure('compose-validate', file, (tmp) =>
    run('go', ['build', '-trimpath', '-o', join(tmp, 'compose-validate'), '.'], {
      cwd: dir,
      env: goEnv(),
    }),
  );
}

/** kustomize, which renders deploy/k8s (used by the deployment tests). */
export function ensureKustomize() {
  return ensure('kustomize', `kustomize-${VERSIONS.kustomize}`, (tmp) =>
    run('go', ['install', `sigs.k8s.io/kustomize/kustomize/v5@${VERSIONS.kustomize}`], {
      env: goEnv({ GOBIN: tmp, GOFLAGS: '' }),
    }),
  );
}

/**
 * kubectl-validate, which checks rendered manifests against the Kubernetes API's own schemas,
 * offline (run it with KUBECONFIG=/dev/null and --version). The first build takes a few minutes.
 */
export function ensureKubectlValidate() {
  return ensure('kubectl-validate', `kubectl-validate-${VERSIONS.kubectlValidate}`, (tmp) =>
    run('go', ['install', `sigs.k8s.io/kubectl-validate@${VERSIONS.kubectlValidate}`], {
      env: goEnv({ GOBIN: tmp, GOFLAGS: '' }),
    }),
  );
}
