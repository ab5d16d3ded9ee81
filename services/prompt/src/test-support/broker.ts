import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TEST_INFRA } from '@aict/service-kit/testing';

const execFileAsync = promisify(execFile);

/**
 * A RabbitMQ virtual host of its own for one test file. The service's queues have fixed names
 * (`prompt.workspace-deleted`, `prompt.summaries`) and jest runs files in parallel, each with
 * its own database: in one shared vhost an event meant for one file's service would be taken
 * by another's. Needs `rabbitmqctl` (as `infra/` does); without it, the shared test vhost.
 */
export async function createTestVhost(): Promise<{ url: string; remove: () => Promise<void> }> {
  const name = `aict-prompt-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
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

// service-kit's broker-restart test stops RabbitMQ for a few seconds; test files that use the
// broker hold this shared lock (same protocol and directory as service-kit's messaging tests)
// so that the restart never runs under them.
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
