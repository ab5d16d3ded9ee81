import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

export class WorkerLimitError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WorkerLimitError';
  }
}

export interface WorkerLimits {
  timeoutMs: number;
  maxMemoryMb: number;
}

/**
 * Runs `source` (CommonJS, plain Node: ESM-only packages such as file-type and unpdf load
 * with require(), also under jest) in a worker thread that posts `{ ok, value | reason }`.
 * `workerData.base` lets it resolve packages from this service. A hostile input cannot stall
 * or exhaust the service: the worker is terminated at the deadline and bounded in memory.
 */
export function runInWorker<T>(source: string, data: object, limits: WorkerLimits): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { ...data, base: __filename },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      action();
    };
    const timer = setTimeout(
      () => finish(() => reject(new WorkerLimitError('it took too long'))),
      limits.timeoutMs,
    );
    worker.on('message', (message: { ok: boolean; value?: T; reason?: string }) =>
      finish(() =>
        message.ok
          ? resolve(message.value as T)
          : reject(new WorkerLimitError(message.reason ?? 'failed')),
      ),
    );
    worker.on('error', (err) => finish(() => reject(new WorkerLimitError(err.message))));
    worker.on('exit', (code) => finish(() => reject(new WorkerLimitError(`stopped (${code})`))));
  });
}

export interface ChildLimits {
  timeoutMs: number;
  /** The child's V8 heap and, watched from here, its whole resident memory (RSS). */
  maxMemoryMb: number;
  /** How often the child's RSS is read. */
  pollMs: number;
  /** Most bytes the child may write to stdout (its answer). */
  maxOutputBytes: number;
}

/** Why a child process was stopped from outside: its memory or its time ran out. */
export class ChildLimitError extends Error {
  constructor(readonly limit: 'memory' | 'time') {
    super(limit === 'memory' ? 'it needed too much memory' : 'it took too long');
    this.name = 'ChildLimitError';
  }
}

/** The resident memory of a process in bytes (Linux /proc), or null where it cannot be read. */
export function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Runs `source` (CommonJS, plain Node) in a child process: `args` reach it as JSON in
 * `process.argv[1]` (with `base`, this file, for createRequire), `input` on its stdin; it
 * answers one JSON value on stdout. A worker thread shares the service's memory; a child
 * does not: its heap is capped (--max-old-space-size), its RSS is read every `pollMs` and it
 * is killed past `maxMemoryMb` or at the deadline, so no input can grow the service itself.
 */
export function runInChildProcess<T>(
  source: string,
  args: object,
  input: Buffer,
  limits: ChildLimits,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        `--max-old-space-size=${limits.maxMemoryMb}`,
        '--max-semi-space-size=8',
        '-e',
        source,
        JSON.stringify({ ...args, base: __filename }),
      ],
      { stdio: ['pipe', 'pipe', 'ignore'], env: { PATH: process.env.PATH ?? '' } },
    );
    const maxRss = limits.maxMemoryMb * 1024 * 1024;
    const output: Buffer[] = [];
    let outputBytes = 0;
    let settled = false;
    const finish = (action: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      child.kill('SIGKILL');
      action();
    };
    const timer = setTimeout(
      () => finish(() => reject(new ChildLimitError('time'))),
      limits.timeoutMs,
    );
    const watch = setInterval(() => {
      const rss = child.pid ? residentBytes(child.pid) : null;
      if (rss !== null && rss > maxRss) finish(() => reject(new ChildLimitError('memory')));
    }, limits.pollMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (outputBytes > limits.maxOutputBytes)
        finish(() => reject(new WorkerLimitError('it answered too much')));
      else output.push(chunk);
    });
    child.on('error', (err) => finish(() => reject(new WorkerLimitError(err.message))));
    child.on('close', (code, signal) => {
      if (settled) return;
      if (code !== 0) {
        // V8 out of heap aborts the process (SIGABRT, or 134 from a shell).
        const outOfMemory = signal === 'SIGABRT' || code === 134;
        finish(() =>
          reject(
            outOfMemory
              ? new ChildLimitError('memory')
              : new WorkerLimitError(`stopped (${code ?? signal})`),
          ),
        );
        return;
      }
      try {
        const value = JSON.parse(Buffer.concat(output).toString('utf8')) as T;
        finish(() => resolve(value));
      } catch {
        finish(() => reject(new WorkerLimitError('it gave no answer')));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** A small gate: at most `max` tasks run at once, the others wait in order. */
export function concurrencyGate(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
