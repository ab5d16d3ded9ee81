// Keeps one child process running, as Kubernetes would restart a container that died: an
// unexpected exit is reported and the process is started again after a growing pause
// (1 s, 2 s, 4 s … at most 30 s). Too many quick crashes in a row and it gives up, and says so.
// An exit asked for (kill(), stop()) is not a crash.

/** "code 1" or "signal SIGKILL": how a child ended. */
export const describeExit = (code, signal) => (signal ? `signal ${signal}` : `code ${code}`);

/**
 * @param {{
 *   name: string,
 *   start: () => import('node:child_process').ChildProcess,
 *   log?: (line: string) => void,
 *   baseDelayMs?: number,
 *   maxDelayMs?: number,
 *   maxQuickCrashes?: number,
 *   quickCrashWindowMs?: number,
 *   onRestart?: (child: import('node:child_process').ChildProcess, attempt: number) => void,
 *   enabled?: boolean,
 * }} options
 */
export function supervise({
  name,
  enabled = true,
  start,
  log = (line) => console.log(line),
  baseDelayMs = 1_000,
  maxDelayMs = 30_000,
  maxQuickCrashes = 5,
  quickCrashWindowMs = 60_000,
  onRestart = () => {},
}) {
  let current = null;
  let intended = false;
  let stopped = false;
  let timer;
  let crashes = [];

  function run() {
    intended = false;
    const child = start();
    current = child;
    child.once('exit', (code, signal) => onExit(child, code, signal));
    return child;
  }

  function onExit(child, code, signal) {
    if (!enabled || child !== current || intended || stopped) return;
    const now = Date.now();
    crashes = crashes.filter((at) => now - at < quickCrashWindowMs);
    crashes.push(now);
    const attempt = crashes.length;
    const how = describeExit(code, signal);
    if (attempt > maxQuickCrashes) {
      log(
        `${name} exited (${how}); it crashed ${attempt} times within ${quickCrashWindowMs / 1000} s, giving up (see its log)`,
      );
      return;
    }
    const delayMs = Math.min(baseDelayMs * 2 ** (attempt - 1), maxDelayMs);
    // Said when the pause is over: a whole stack stopping (Ctrl+C reaches every child) calls
    // stop() within the pause, and then nothing is said or restarted.
    timer = setTimeout(() => {
      if (stopped || intended || current !== child) return;
      log(`${name} exited (${how}); restarting (attempt ${attempt}, after ${delayMs / 1000} s)`);
      onRestart(run(), attempt);
    }, delayMs);
  }

  /** Ends the current child on purpose (no restart) and resolves once it has exited. */
  function kill(signal = 'SIGKILL') {
    intended = true;
    clearTimeout(timer);
    const child = current;
    return new Promise((resolve) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  return {
    /** Starts the child (again, after a kill()); returns it. */
    start: run,
    kill,
    /** No more restarts; the caller stops the child itself. */
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    get child() {
      return current;
    },
  };
}
