import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TEST_INFRA } from './index';

const execFileAsync = promisify(execFile);

/**
 * A RabbitMQ virtual host of its own for one test file. A service's queues and request/reply
 * endpoints have fixed names (e.g. `workspace.user-deleted`, `rpc.workspace.provider-config`), and
 * jest runs files in parallel, each with its own database: in one shared vhost a request or
 * an event of one file would be served by another file's service. Needs `rabbitmqctl` (as in
 * `infra/`); without it, the shared test vhost is used.
 */
export async function createTestVhost(
  prefix = 'aict-test',
): Promise<{ url: string; remove: () => Promise<void> }> {
  const name = `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  try {
    await execFileAsync('rabbitmqctl', ['add_vhost', name]);
    await execFileAsync('rabbitmqctl', ['set_permissions', '-p', name, 'guest', '.*', '.*', '.*']);
  } catch {
    return { url: TEST_INFRA.amqp, remove: async () => undefined };
  }
  const base = new URL(TEST_INFRA.amqp);
  base.pathname = `/${name}`;
  return {
    url: base.toString(),
    remove: async () => {
      await execFileAsync('rabbitmqctl', ['delete_vhost', name]).catch(() => undefined);
    },
  };
}

// service-kit's broker-restart test stops RabbitMQ for a few seconds; test files that use
// the broker hold this shared lock (same protocol and directory as service-kit's messaging
// tests) so the restart never runs under them.
const LOCK_DIR = join(tmpdir(), 'aict-messaging-broker-lock');
const WRITER = join(LOCK_DIR, 'restart');

function restartInProgress(): boolean {
  try {
    const pid = Number(readFileSync(WRITER, 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
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
