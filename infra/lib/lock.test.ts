import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs module of the set-up scripts, without type declarations
import { readLockOwner, withLock } from './lock.mjs';

type Owner = { pid: number; host: string; command: string; started: string };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aict-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A lock directory as a run that stopped (or still runs) would leave it. */
function leaveLock(path: string, owner: Partial<Owner>) {
  mkdirSync(path);
  writeFileSync(
    join(path, 'owner.json'),
    JSON.stringify({
      host: hostname(),
      command: 'node infra/up.mjs',
      started: '2026-11-24T20:00:00.000Z',
      ...owner,
    }),
  );
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

/** Resolves to 'gave up' if the lock is not taken within `ms` (the old lock waited 30 min). */
function takenWithin<T>(ms: number, taking: Promise<T>): Promise<T | 'gave up'> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<'gave up'>((resolve) => {
    timer = setTimeout(() => resolve('gave up'), ms);
  });
  return Promise.race([taking, giveUp]).finally(() => clearTimeout(timer));
}

describe('the set-up lock', () => {
  it('when the lock is held, then its directory names the owner (pid, host, command, started)', async () => {
    const path = join(dir, 'build-minio.lock');

    const owner = await withLock(path, async () => readLockOwner(path) as Owner, { log: () => {} });

    expect(owner).toEqual(
      expect.objectContaining({ pid: process.pid, host: hostname(), command: expect.any(String) }),
    );
    expect(Number.isNaN(Date.parse(owner.started))).toBe(false);
    expect(existsSync(path)).toBe(false);
  });

  it('when the lock was left by a process that is gone, then the next run takes it at once', async () => {
    const path = join(dir, 'build-ferretdb.lock');
    const pid = deadPid();
    leaveLock(path, { pid });
    const lines: string[] = [];

    const result = await takenWithin(
      10_000,
      withLock(path, async () => 'built', {
        what: 'the build of ferretdb',
        log: (l: string) => lines.push(l),
      }),
    );

    expect(result).toBe('built');
    expect(lines.join('\n')).toContain(`pid ${pid}`);
    expect(existsSync(path)).toBe(false);
  });

  it('when the lock is held by a live process, then the waiter says once what it waits for and takes the lock when that process ends', async () => {
    const path = join(dir, 'infra-up.lock');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    leaveLock(path, { pid: holder.pid });
    const lines: string[] = [];
    let announced!: () => void;
    const waiting = new Promise<void>((resolve) => (announced = resolve));

    const taking = withLock(path, async () => 'taken', {
      what: 'another infra bring-up to finish',
      pollMs: 50,
      log: (line: string) => {
        lines.push(line);
        announced();
      },
    });
    await waiting;
    const before = [...lines];
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const result = await takenWithin(4_000, taking);

    expect(before).toEqual([
      `waiting for another infra bring-up to finish (held by pid ${holder.pid} on ${hostname()} since 2026-11-24T20:00:00.000Z: node infra/up.mjs)`,
    ]);
    expect(result).toBe('taken');
  });
});
