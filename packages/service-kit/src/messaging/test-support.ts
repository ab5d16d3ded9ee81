// Helpers for the messaging tests (not exported by the package).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as amqp from 'amqplib';
import { createLogger, type Logger } from '../logger';
import { isAlive } from '../testing/broker';
import { sleep, waitFor as pollFor } from '../testing/harness';

const execFileAsync = promisify(execFile);

export const TEST_VHOST = 'aict-test';
export const AMQP_TEST_URL =
  process.env.AMQP_TEST_URL ?? `amqp://guest:guest@127.0.0.1:5672/${TEST_VHOST}`;
export const MONGO_TEST_URL =
  process.env.MONGO_TEST_URL ?? 'mongodb://127.0.0.1:27017/aict_messaging_test';

export function testLogger(): Logger {
  return createLogger('messaging-test', { level: process.env.TEST_LOG_LEVEL ?? 'silent' });
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export { sleep };

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

export const waitFor = <T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition') =>
  pollFor(check, what, timeoutMs) as Promise<Truthy<T>>;

/** Creates the test vhost when it is missing (rabbitmqctl runs as root here). */
export async function ensureTestVhost(): Promise<void> {
  try {
    const conn = await amqp.connect(AMQP_TEST_URL);
    await conn.close();
    return;
  } catch {
    // vhost missing (or broker down: rabbitmqctl will say so)
  }
  for (const args of [
    ['add_vhost', TEST_VHOST],
    ['set_permissions', '-p', TEST_VHOST, 'guest', '.*', '.*', '.*'],
  ]) {
    try {
      execFileSync('rabbitmqctl', args, { stdio: 'pipe' });
    } catch (err) {
      if (!String((err as { stderr?: Buffer }).stderr ?? '').includes('already exists')) throw err;
    }
  }
}

/** A raw connection to look at queues the way an operator would. */
export async function openAdmin() {
  const connection = await amqp.connect(AMQP_TEST_URL);
  const channel = await connection.createChannel();
  channel.on('error', () => undefined);
  return {
    channel,
    async messageCount(queue: string): Promise<number> {
      return (await channel.checkQueue(queue)).messageCount;
    },
    async deleteQueues(...queues: string[]) {
      for (const q of queues) await channel.deleteQueue(q).catch(() => undefined);
    },
    async deleteExchanges(...exchanges: string[]) {
      for (const e of exchanges) await channel.deleteExchange(e).catch(() => undefined);
    },
    async close() {
      await connection.close().catch(() => undefined);
    },
  };
}

// The broker-restart test stops RabbitMQ for a few seconds. Test files that use the
// broker hold a shared lock for their duration; the restart takes it exclusively, so it
// never runs under another messaging test (jest may run files in parallel).
const LOCK_DIR = join(tmpdir(), 'aict-messaging-broker-lock');
const WRITER = join(LOCK_DIR, 'restart');

function liveHolder(file: string): boolean {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid && isAlive(pid)) return true;
    unlinkSync(file); // left behind by a dead run
  } catch {
    /* gone meanwhile */
  }
  return false;
}

function readers(): string[] {
  return readdirSync(LOCK_DIR)
    .filter((name) => name.startsWith('reader-'))
    .map((name) => join(LOCK_DIR, name))
    .filter(liveHolder);
}

export async function acquireSharedBrokerLock(): Promise<() => void> {
  mkdirSync(LOCK_DIR, { recursive: true });
  const mine = join(LOCK_DIR, `reader-${process.pid}-${randomBytes(4).toString('hex')}`);
  for (;;) {
    writeFileSync(mine, String(process.pid));
    if (!liveHolder(WRITER)) return () => unlinkSync(mine);
    unlinkSync(mine);
    await sleep(200);
  }
}

export async function acquireExclusiveBrokerLock(timeoutMs = 120_000): Promise<() => void> {
  mkdirSync(LOCK_DIR, { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      writeFileSync(WRITER, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      liveHolder(WRITER);
      if (Date.now() > deadline) throw new Error('another broker restart holds the lock');
      await sleep(200);
    }
  }
  while (readers().length > 0) {
    if (Date.now() > deadline) {
      unlinkSync(WRITER);
      throw new Error('other messaging tests still hold the broker');
    }
    await sleep(200);
  }
  return () => unlinkSync(WRITER);
}

/** Runs rabbitmqctl without blocking the event loop (the bus must see the outage). */
export async function rabbitmqctl(...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('rabbitmqctl', args);
  return stdout;
}
