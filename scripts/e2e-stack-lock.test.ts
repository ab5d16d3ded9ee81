import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The lock that runs the e2e files stopping parts of the shared stack alone while the others
// run two at a time (e2e/support/stack-environment.cjs).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { acquire } = require('../e2e/support/stack-environment.cjs') as {
  acquire: (dir: string, alone: boolean) => Promise<() => void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);
}

describe('the e2e stack lock', () => {
  it('when a file that runs alone holds it, then another file waits until it is released', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aict-lock-'));
    const releaseAlone = await acquire(dir, true);

    const shared = acquire(dir, false);

    expect(await settlesWithin(shared, 800)).toBe(false);
    releaseAlone();
    expect(await settlesWithin(shared, 2000)).toBe(true);
    (await shared)();
  });

  it('when other files hold it, then the file that runs alone waits for them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aict-lock-'));
    const releaseShared = await acquire(dir, false);

    const alone = acquire(dir, true);

    expect(await settlesWithin(alone, 800)).toBe(false);
    releaseShared();
    expect(await settlesWithin(alone, 2000)).toBe(true);
    (await alone)();
  });

  it('when the process that held it alone has died, then it does not block the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aict-lock-'));
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dir, 'writer'), String(dead));

    const shared = acquire(dir, false);

    expect(await settlesWithin(shared, 2000)).toBe(true);
    (await shared)();
  });
});
