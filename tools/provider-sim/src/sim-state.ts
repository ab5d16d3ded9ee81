import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { RecordedRequest, RequestFilter } from './recorded-request';
import {
  defaultSimConfig,
  parseConfigPatch,
  type FailRule,
  type SimConfig,
  type SimConfigPatch,
} from './sim-config';

export type KeyRule = string[] | ((key: string) => boolean);

/** What a test (in-process) or `/__sim/*` (over HTTP) uses to steer the simulator. */
export interface SimControl {
  /** Merges a partial config (validated; `fail` replaces the current rules). Returns the result. */
  set(patch: SimConfigPatch): SimConfig;
  /** Back to the defaults; forgets recorded requests and generated images. */
  reset(): SimConfig;
  /** The current config (a copy). */
  config(): SimConfig;
  /** Recorded requests, oldest first (copies). */
  requests(filter?: RequestFilter): RecordedRequest[];
  clearRequests(): void;
  /** Resolves with the first recorded request (past or future) that satisfies the predicate. */
  waitForRequest(
    predicate: (request: RecordedRequest) => boolean,
    options?: { timeoutMs?: number },
  ): Promise<RecordedRequest>;
}

/** The default key rule: any key that starts with `sk-` and does not contain `invalid`. */
export const defaultKeyRule = (key: string): boolean =>
  key.startsWith('sk-') && !key.includes('invalid');

interface Entry {
  record: RecordedRequest;
  keyHash: string | null;
}

const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

const copy = <T>(value: T): T => structuredClone(value);

/** The simulator's mutable state: config, failure rules, request log. */
export class SimState implements SimControl {
  private current: SimConfig = copy(defaultSimConfig) as SimConfig;
  private entries: Entry[] = [];
  private seq = 0;
  /** Bumped when the log is cleared; each record remembers the one it was logged in. */
  private epoch = 0;
  private readonly epochOf = new WeakMap<RecordedRequest, number>();
  private readonly updates = new EventEmitter();
  private readonly resetListeners: Array<() => void> = [];

  constructor(private readonly startKeyRule?: KeyRule) {
    this.updates.setMaxListeners(0);
  }

  set(patch: SimConfigPatch): SimConfig {
    this.current = { ...this.current, ...parseConfigPatch(patch) };
    this.trimLog();
    return this.config();
  }

  reset(): SimConfig {
    this.current = copy(defaultSimConfig) as SimConfig;
    this.clearRequests();
    this.seq = 0;
    for (const listener of this.resetListeners) listener();
    return this.config();
  }

  config(): SimConfig {
    return copy(this.current);
  }

  requests(filter: RequestFilter = {}): RecordedRequest[] {
    const keyHash = filter.apiKey === undefined ? undefined : hashKey(filter.apiKey);
    return this.entries
      .filter(
        (entry) =>
          (filter.path === undefined || pathMatches(entry.record.path, filter.path)) &&
          (filter.model === undefined || entry.record.model === filter.model) &&
          (keyHash === undefined || entry.keyHash === keyHash),
      )
      .map((entry) => copy(entry.record));
  }

  clearRequests(): void {
    this.entries = [];
    this.epoch += 1;
  }

  waitForRequest(
    predicate: (request: RecordedRequest) => boolean,
    { timeoutMs = 5000 }: { timeoutMs?: number } = {},
  ): Promise<RecordedRequest> {
    const found = this.entries.find((entry) => predicate(entry.record));
    if (found) return Promise.resolve(copy(found.record));
    return new Promise((resolve, reject) => {
      const onUpdate = (record: RecordedRequest): void => {
        if (!predicate(record)) return;
        cleanup();
        resolve(copy(record));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`provider-sim: no matching request within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.updates.off('update', onUpdate);
      };
      this.updates.on('update', onUpdate);
    });
  }

  // ---- used by the server -------------------------------------------------

  get settings(): Readonly<SimConfig> {
    return this.current;
  }

  onReset(listener: () => void): void {
    this.resetListeners.push(listener);
  }

  isValidKey(key: string): boolean {
    if (this.current.validKeys) return this.current.validKeys.includes(key);
    const rule = this.startKeyRule;
    if (Array.isArray(rule)) return rule.includes(key);
    if (typeof rule === 'function') return rule(key);
    return defaultKeyRule(key);
  }

  /** Starts a record; the caller mutates it and calls `touch` after each change. */
  record(
    init: Omit<
      RecordedRequest,
      'seq' | 'completed' | 'aborted' | 'truncated' | 'timings' | 'connectionOpen'
    >,
    apiKey: string | null,
  ): RecordedRequest {
    this.seq += 1;
    const record: RecordedRequest = {
      seq: this.seq,
      ...init,
      timings: {},
      completed: false,
      aborted: false,
      truncated: false,
      connectionOpen: true,
    };
    this.entries.push({ record, keyHash: apiKey === null ? null : hashKey(apiKey) });
    this.epochOf.set(record, this.epoch);
    this.trimLog();
    this.touch(record);
    return record;
  }

  touch(record: RecordedRequest): void {
    // A request from before a reset (its socket may close later) is not news to a waiter.
    if (this.epochOf.get(record) !== this.epoch) return;
    if (this.updates.listenerCount('update') > 0) this.updates.emit('update', record);
  }

  /** The first failure rule that matches; consumes one of its `count`. */
  takeFailure(path: string, apiKey: string | null, isFilePath: boolean): FailRule | undefined {
    const index = this.current.fail.findIndex(
      (rule) =>
        (rule.path === undefined ? !isFilePath : pathMatches(path, rule.path)) &&
        (rule.apiKey === undefined || rule.apiKey === apiKey),
    );
    if (index < 0) return undefined;
    const rule = this.current.fail[index]!;
    if (rule.count !== undefined) {
      const left = rule.count - 1;
      this.current.fail =
        left > 0
          ? this.current.fail.map((r, i) => (i === index ? { ...r, count: left } : r))
          : this.current.fail.filter((_, i) => i !== index);
    }
    return rule;
  }

  private trimLog(): void {
    const excess = this.entries.length - this.current.maxRecordedRequests;
    if (excess > 0) this.entries.splice(0, excess);
  }
}

/** `/chat/completions`, `chat/completions` and `/v1/chat/completions` all match `/v1/chat/completions`. */
export function pathMatches(path: string, wanted: string): boolean {
  const normalized = wanted.startsWith('/') ? wanted : `/${wanted}`;
  return path.startsWith(normalized) || path.startsWith(`/v1${normalized}`);
}
