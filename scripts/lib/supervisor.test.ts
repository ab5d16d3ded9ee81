import { spawn, type ChildProcess } from 'node:child_process';
// @ts-expect-error: a plain .mjs module of the start-up scripts, without type declarations
import { supervise } from './supervisor.mjs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A tiny child: exits with `code` after a moment, or runs until killed. */
const child = (code: number | null): ChildProcess =>
  spawn(
    process.execPath,
    [
      '-e',
      code === null ? 'setInterval(() => {}, 1000)' : `setTimeout(() => process.exit(${code}), 20)`,
    ],
    { stdio: 'ignore' },
  );

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

/** A supervisor over children made by `plan` (one exit code, or null for "runs", per start). */
function supervised(plan: Array<number | null>, options: Record<string, unknown> = {}) {
  const lines: string[] = [];
  const started: ChildProcess[] = [];
  const supervisor = supervise({
    name: 'generation',
    start: () => {
      const next = child(plan[Math.min(started.length, plan.length - 1)] ?? null);
      started.push(next);
      return next;
    },
    log: (line: string) => lines.push(line),
    baseDelayMs: 20,
    ...options,
  });
  cleanup.push(() => {
    supervisor.stop();
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  return { supervisor, lines, started };
}

describe('the local stack supervisor', () => {
  it('when a service exits unexpectedly, then it is started again and the console says so', async () => {
    const { supervisor, lines, started } = supervised([3, null]);

    supervisor.start();
    await until(() => started.length === 2, 'a restart');

    expect(lines).toEqual(['generation exited (code 3); restarting (attempt 1, after 0.02 s)']);
    expect(started[1]!.exitCode).toBeNull();
  });

  it('when a service is killed by a signal, then the message names the signal', async () => {
    const { supervisor, lines, started } = supervised([null]);

    supervisor.start().kill('SIGKILL');
    await until(() => started.length === 2, 'a restart');

    expect(lines[0]).toBe(
      'generation exited (signal SIGKILL); restarting (attempt 1, after 0.02 s)',
    );
  });

  it('when the stack kills a service on purpose, then it is not restarted until asked', async () => {
    const { supervisor, lines, started } = supervised([null]);
    supervisor.start();

    await supervisor.kill();
    await sleep(200);

    expect(started).toHaveLength(1);
    expect(lines).toEqual([]);
    supervisor.start();
    expect(started).toHaveLength(2);
  });

  it('when a service keeps crashing, then the pauses grow and the supervisor gives up and says so', async () => {
    const { supervisor, lines, started } = supervised([1], { maxQuickCrashes: 2 });

    supervisor.start();
    await until(() => lines.some((line) => line.includes('giving up')), 'giving up');

    expect(lines).toEqual([
      'generation exited (code 1); restarting (attempt 1, after 0.02 s)',
      'generation exited (code 1); restarting (attempt 2, after 0.04 s)',
      'generation exited (code 1); it crashed 3 times within 60 s, giving up (see its log)',
    ]);
    expect(started).toHaveLength(3);
  });

  it('when supervision is off, then an exit is left alone', async () => {
    const { supervisor, lines, started } = supervised([3], { enabled: false });

    const first = supervisor.start();
    await new Promise((resolve) => first.once('exit', resolve));
    await sleep(200);

    expect(started).toHaveLength(1);
    expect(lines).toEqual([]);
  });
});
