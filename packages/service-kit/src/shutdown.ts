import type { Logger } from 'pino';

export interface ShutdownStep {
  /** For the log: `http`, `consumers`, `amqp`, `mongo`. */
  name: string;
  run: () => Promise<unknown> | unknown;
}

export interface ShutdownOptions {
  /** Everything must be done within this; then the process exits 1 anyway. Default 25 s. */
  timeoutMs?: number;
  signals?: NodeJS.Signals[];
  /** Replaced in tests; defaults to `process.exit`. */
  exit?: (code: number) => void;
}

export interface ShutdownHandle {
  /**
   * Runs the shutdown as a signal would; `exitCode` 1 for a fatal error (the exit code
   * is 1 if it or any step says so). Idempotent: a second call returns the first run.
   */
  shutdown: (reason: string, exitCode?: number) => Promise<number>;
  /** Removes the signal listeners (tests). */
  dispose: () => void;
}

/**
 * On SIGTERM/SIGINT runs `steps` in order — first the HTTP server (stop accepting,
 * finish requests in flight), then e.g. consumers (stop, finish in-flight messages),
 * the AMQP connection, MongoDB — within an overall deadline, then exits: 0 when every
 * step succeeded, 1 when one failed or the deadline passed. A second signal exits at once.
 */
export function onShutdown(
  logger: Logger,
  steps: ShutdownStep[],
  options: ShutdownOptions = {},
): ShutdownHandle {
  const {
    timeoutMs = 25_000,
    signals = ['SIGTERM', 'SIGINT'],
    exit = (code: number) => process.exit(code),
  } = options;
  let running: Promise<number> | undefined;

  const runSteps = async (): Promise<number> => {
    let code = 0;
    for (const step of steps) {
      const started = Date.now();
      try {
        await step.run();
        logger.info({ step: step.name, ms: Date.now() - started }, 'shutdown step done');
      } catch (err) {
        code = 1;
        logger.error({ step: step.name, err }, 'shutdown step failed');
      }
    }
    return code;
  };

  const shutdown = (reason: string, exitCode = 0): Promise<number> => {
    running ??= (async () => {
      logger.info({ reason, steps: steps.map((s) => s.name), timeoutMs }, 'shutting down');
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<number>((resolve) => {
        timer = setTimeout(() => {
          logger.error({ timeoutMs }, 'shutdown deadline passed; exiting');
          resolve(1);
        }, timeoutMs);
        timer.unref();
      });
      const code = Math.max(exitCode, await Promise.race([runSteps(), deadline]));
      clearTimeout(timer);
      logger.info({ code }, 'shutdown complete');
      await flushLogger(logger);
      exit(code);
      return code;
    })();
    return running;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (running) {
      logger.warn({ signal }, 'second signal: exiting now');
      exit(1);
      return;
    }
    void shutdown(signal);
  };
  for (const signal of signals) process.on(signal, onSignal);

  return {
    shutdown,
    dispose: () => {
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}

function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      resolve();
    }
    setTimeout(resolve, 500).unref();
  });
}
