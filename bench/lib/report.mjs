// What every benchmark of the suite shares: medians, the pass/miss verdict of a figure
// against its target, the one table, and the hand-over of a module's rows to bench/run.mjs
// (BENCH_RESULT_FILE: the rows as JSON, written by a module that runs as a child process).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export const log = (line = '') => process.stdout.write(`${line}\n`);

export function median(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return NaN;
  const sorted = Float64Array.from(finite).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/**
 * One row of the table.
 * @param {object} o
 * @param {string} o.measure   what was measured (one line)
 * @param {number} o.value     the figure compared with the target
 * @param {'<='|'>='} o.op
 * @param {number} o.target
 * @param {string} o.unit      e.g. 'ms', 'x', 'KB', ' events/s'
 * @param {number} [o.digits]
 * @param {string} [o.detail]  the side-by-side figures behind the value
 */
export function row({ measure, value, op, target, unit = '', digits = 2, detail = '' }) {
  const ok = Number.isFinite(value) && (op === '<=' ? value <= target : value >= target);
  let miss = '';
  if (!Number.isFinite(value)) miss = 'not measured';
  else if (!ok) {
    const by = Math.abs(value - target);
    const rel = target !== 0 ? ` (${fmt((by / Math.abs(target)) * 100, 0)} %)` : '';
    miss = `${op === '<=' ? 'over' : 'under'} by ${fmt(by, digits)}${unit}${rel}`;
  }
  return {
    measure,
    figure: `${fmt(value, digits)}${unit}`,
    target: `${op === '<=' ? '≤' : '≥'} ${target}${unit}`,
    result: ok ? 'pass' : `MISS ${miss}`,
    detail,
    value,
    pass: ok,
  };
}

/** A row for a measure that could not run (the table says why). */
export const failedRow = (measure, target, reason) => ({
  measure,
  figure: '–',
  target,
  result: `MISS not measured: ${reason}`,
  detail: '',
  value: NaN,
  pass: false,
});

export function table(rows) {
  const cell = (s) => String(s).replaceAll('|', '\\|');
  const lines = [
    '| measure | figure | target | result | side by side |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${cell(r.measure)} | ${cell(r.figure)} | ${cell(r.target)} | ${cell(r.result)} | ${cell(r.detail)} |`,
    ),
  ];
  return lines.join('\n');
}

/** Prints the rows and, when run by bench/run.mjs, hands them over. */
export function emit(rows) {
  if (process.env.BENCH_RESULT_FILE)
    writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(rows));
  log('');
  log(table(rows));
}

export function readRows(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * A RabbitMQ vhost of this run alone (request/reply queues are shared by name within a vhost:
 * another stack on `aict-test` would answer our requests). Returns its URL and a cleanup.
 */
export async function privateVhost(label, base = 'amqp://guest:guest@127.0.0.1:5672/') {
  const vhost = `aict-bench-${label}-${randomBytes(3).toString('hex')}`;
  await execFileP('rabbitmqctl', ['add_vhost', vhost]);
  await execFileP('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*']);
  return {
    url: `${base.replace(/\/$/, '')}/${vhost}`,
    drop: () => execFileP('rabbitmqctl', ['delete_vhost', vhost]).catch(() => undefined),
  };
}

/** Resident memory of a process in MB (/proc/<pid>/status VmRSS), NaN when gone. */
export function rssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Builds what a benchmark runs from dist/ (skipped with BENCH_SKIP_BUILD=1). */
export async function buildAll(root) {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  log('  building (npm run build) …');
  await execFileP('npm', ['run', 'build', '--silent'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
}

/** Builds some workspaces (skipped with BENCH_SKIP_BUILD=1). */
export async function buildWorkspaces(root, workspaces) {
  if (process.env.BENCH_SKIP_BUILD === '1') return;
  for (const w of workspaces)
    await execFileP('npm', ['run', 'build', '--silent', '-w', w], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
}
