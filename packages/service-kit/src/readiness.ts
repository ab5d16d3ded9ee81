/**
 * A readiness check: resolves when the dependency answers, rejects (or resolves
 * `false`) when it does not. It receives a signal that aborts when the check's
 * time is up, so it can give up early.
 */
export interface ReadinessCheck {
  name: string;
  check: (signal: AbortSignal) => Promise<unknown>;
}

export interface ReadinessReport {
  ready: boolean;
  /** `ok`, or why the check failed (`timed out after 1500 ms`, the error message). */
  checks: Record<string, string>;
  failed: string[];
}

export const DEFAULT_READINESS_TIMEOUT_MS = 1500;

/** Runs every check concurrently, each bounded by `timeoutMs`; never rejects. */
export async function runReadinessChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs = DEFAULT_READINESS_TIMEOUT_MS,
): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => [name, await runOne(check, timeoutMs)] as const),
  );
  const failed = results.filter(([, outcome]) => outcome !== 'ok').map(([name]) => name);
  return { ready: failed.length === 0, checks: Object.fromEntries(results), failed };
}

async function runOne(check: ReadinessCheck['check'], timeoutMs: number): Promise<string> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(`timed out after ${timeoutMs} ms`);
    }, timeoutMs);
  });
  const attempt = (async () => {
    try {
      const outcome = await check(controller.signal);
      return outcome === false ? 'failed' : 'ok';
    } catch (err) {
      return err instanceof Error && err.message ? err.message : 'failed';
    }
  })();
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `fn` with a deadline; rejects with `timed out after N ms` when it passes. */
export async function withTimeout<T>(
  fn: () => Promise<T>,
  timeoutMs: number,
  what = 'operation',
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([fn(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
