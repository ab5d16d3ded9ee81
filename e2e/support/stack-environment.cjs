// The e2e files' test environment (Node's, plus a lock). Files run two at a time on the one
// stack; a file that stops or restarts a part of it (EXCLUSIVE) runs alone: it waits until
// the files running finish, and no file starts while it runs. The lock wraps the whole file
// (environment set-up to teardown), so it covers every hook of the file, afterAll included.
const {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { basename, join } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

/**
 * Files that kill or restart a part of the shared stack (run last: e2e/support/sequencer.cjs).
 * infra-fault.e2e.ts is not one: it stops the servers of a stack of its own.
 */
const EXCLUSIVE = ['fault.e2e.ts'];
const POLL_MS = 200;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid in `file` when that process still runs; a stale file (its process gone) goes. */
function holder(file) {
  let pid;
  try {
    pid = Number(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (alive(pid)) return pid;
  rmSync(file, { force: true });
  return null;
}

const readers = (dir) =>
  readdirSync(dir).filter((n) => n.startsWith('reader-') && holder(join(dir, n)) !== null);

/** Takes the lock (shared, or alone); resolves to its release. */
async function acquire(dir, alone) {
  mkdirSync(dir, { recursive: true });
  const writer = join(dir, 'writer');
  if (alone) {
    // One writer at a time; once it is there no reader starts, then it waits for them.
    for (;;) {
      try {
        writeFileSync(writer, String(process.pid), { flag: 'wx' });
        break;
      } catch {
        holder(writer);
        await sleep(POLL_MS);
      }
    }
    while (readers(dir).length > 0) await sleep(POLL_MS);
    return () => rmSync(writer, { force: true });
  }
  const mine = join(dir, `reader-${process.pid}`);
  for (;;) {
    if (holder(writer) === null) {
      writeFileSync(mine, String(process.pid));
      if (holder(writer) === null) break;
      unlinkSync(mine);
    }
    await sleep(POLL_MS);
  }
  return () => rmSync(mine, { force: true });
}

class StackEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.alone = EXCLUSIVE.includes(basename(context.testPath));
    // One lock per run: the run's stack (its control server's port) names it.
    const { controlUrl } = JSON.parse(process.env.AICT_E2E_STACK ?? '{}');
    this.dir = join(tmpdir(), `aict-e2e-lock-${new URL(controlUrl ?? 'http://x:0').port}`);
  }

  async setup() {
    this.release = await acquire(this.dir, this.alone);
    await super.setup();
  }

  async teardown() {
    try {
      await super.teardown();
    } finally {
      this.release?.();
    }
  }
}

module.exports = StackEnvironment;
module.exports.EXCLUSIVE = EXCLUSIVE;
module.exports.acquire = acquire;
