import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import * as amqp from 'amqplib';
import { TEST_INFRA } from './index';

const execFileAsync = promisify(execFile);

/**
 * A RabbitMQ virtual host of its own for one test file. A service's queues and request/reply
 * endpoints have fixed names (e.g. `workspace.user-deleted`, `rpc.workspace.provider-config`), and
 * jest runs files in parallel, each with its own database: in one shared vhost a request or
 * an event of one file would be served by another file's service. Needs `rabbitmqctl` (as in
 * `infra/`); without it, the shared test vhost is used.
 *
 * Each `rabbitmqctl` call boots an Erlang VM (0.7 s of CPU), so vhosts are pooled per jest
 * worker: `remove()` deletes every queue and exchange declared while the file ran (recorded
 * from amqplib's channels) and hands the empty vhost to the worker's next file. A vhost is
 * created only when the worker's pool is empty; the pools of workers that have exited are
 * deleted by the next worker that starts.
 */
export async function createTestVhost(
  prefix = 'aict-test',
): Promise<{ name: string; url: string; remove: () => Promise<void> }> {
  recordDeclarations();
  let name = takePooled();
  if (!name) {
    name = `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    try {
      await execFileAsync('rabbitmqctl', ['add_vhost', name]);
      await execFileAsync('rabbitmqctl', [
        'set_permissions',
        '-p',
        name,
        'guest',
        '.*',
        '.*',
        '.*',
      ]);
    } catch {
      return { name: '/', url: TEST_INFRA.amqp, remove: async () => undefined };
    }
    deleteExitedPools();
  }
  const base = new URL(TEST_INFRA.amqp);
  base.pathname = `/${encodeURIComponent(name)}`;
  const url = base.toString();
  const vhost = name;
  return {
    name,
    url,
    remove: async () => {
      try {
        await deleteDeclared(url);
        writeFileSync(join(poolDir(), vhost), '');
      } catch {
        await execFileAsync('rabbitmqctl', ['delete_vhost', vhost]).catch(() => undefined);
      }
    },
  };
}

const POOLS = join(tmpdir(), 'aict-test-vhosts');
/** This worker's pool (a directory of empty vhosts' names), one per jest run and worker. */
const poolDir = () => {
  const dir = join(POOLS, `${process.ppid}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

function takePooled(): string | null {
  const dir = poolDir();
  const [name] = readdirSync(dir);
  if (!name) return null;
  unlinkSync(join(dir, name));
  return name;
}

/** Deletes (in the background) the pooled vhosts of workers whose process has exited. */
function deleteExitedPools(): void {
  for (const dir of readdirSync(POOLS)) {
    const pid = Number(dir.split('-')[1]);
    if (pid === process.pid || isAlive(pid)) continue;
    const names = readdirSync(join(POOLS, dir));
    rmSync(join(POOLS, dir), { recursive: true, force: true });
    void Promise.all(
      names.map((n) => execFileAsync('rabbitmqctl', ['delete_vhost', n]).catch(() => undefined)),
    );
  }
}

/** Whether a process with this id runs (a lock or pool file's owner). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Queues and exchanges declared by this file (its module registry), any vhost. */
const declared = { queues: new Set<string>(), exchanges: new Set<string>() };
let recording = false;

type Declare = (this: unknown, name: string, ...rest: unknown[]) => Promise<unknown>;

/** Wraps amqplib's assertQueue/assertExchange (this file's copy of the module) to record. */
function recordDeclarations(): void {
  if (recording) return;
  recording = true;
  // Past the package's exports: the channel class both the bus and these tests use. Jest's
  // own `require`, so it is this file's copy of the module (createRequire would load another).
  const model = join(dirname(require.resolve('amqplib')), 'lib', 'channel_model.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Channel } = require(model) as { Channel: { prototype: Record<string, Declare> } };
  const proto = Channel.prototype;
  const assertQueue = proto.assertQueue!;
  const assertExchange = proto.assertExchange!;
  proto.assertQueue = async function (this: unknown, name, ...rest) {
    const ok = (await assertQueue.call(this, name, ...rest)) as { queue: string };
    declared.queues.add(ok.queue);
    return ok;
  };
  proto.assertExchange = async function (this: unknown, name, ...rest) {
    const ok = await assertExchange.call(this, name, ...rest);
    if (name && !name.startsWith('amq.')) declared.exchanges.add(name);
    return ok;
  };
}

/** Deletes what this file declared from the vhost at `url` (absent ones are no error). */
async function deleteDeclared(url: string): Promise<void> {
  const conn = await amqp.connect(url);
  try {
    const ch = await conn.createChannel();
    for (const q of declared.queues) await ch.deleteQueue(q);
    for (const x of declared.exchanges) await ch.deleteExchange(x);
    await ch.close();
  } finally {
    await conn.close();
  }
}

// service-kit's broker-restart test stops RabbitMQ for a few seconds; test files that use
// the broker hold this shared lock (same protocol and directory as service-kit's messaging
// tests) so the restart never runs under them.
const LOCK_DIR = join(tmpdir(), 'aict-messaging-broker-lock');
const WRITER = join(LOCK_DIR, 'restart');

function restartInProgress(): boolean {
  try {
    return isAlive(Number(readFileSync(WRITER, 'utf8')));
  } catch {
    return false; // no restart file
  }
}

export async function acquireSharedBrokerLock(): Promise<() => void> {
  mkdirSync(LOCK_DIR, { recursive: true });
  const mine = join(LOCK_DIR, `reader-${process.pid}-${randomBytes(4).toString('hex')}`);
  for (;;) {
    writeFileSync(mine, String(process.pid));
    if (!restartInProgress()) return () => unlinkSync(mine);
    unlinkSync(mine);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
