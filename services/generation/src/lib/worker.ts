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
