// Heap snapshots of running processes and their comparison, for the memory benchmark: what
// grew between two snapshots, by constructor (DevTools' "Comparison" view, summed).
//
// The processes run with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>` (heapFlags):
// on the signal, Node writes `Heap.<date>.<time>.<pid>.<thread>.<seq>.heapsnapshot` there.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The NODE_OPTIONS that let `takeSnapshot` ask a process for a snapshot. */
export const heapFlags = (dir) => `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`;

const snapshotsOf = (dir, pid) =>
  readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot') && f.includes(`.${pid}.`));

/**
 * Asks process `pid` for a heap snapshot and waits until it is written (Node writes it on the
 * process's own thread: the file is whole once it parses). Answers the file, or null after
 * `timeoutMs`.
 */
export async function takeSnapshot(dir, pid, timeoutMs = 60_000) {
  const before = new Set(snapshotsOf(dir, pid));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  let lastSize = -1;
  while (Date.now() < deadline) {
    await sleep(500);
    const file = snapshotsOf(dir, pid).find((f) => !before.has(f));
    if (!file) continue;
    const path = join(dir, file);
    const size = statSync(path).size;
    if (size > 0 && size === lastSize) {
      try {
        JSON.parse(readFileSync(path, 'utf8'));
        return path;
      } catch {
        /* still being written */
      }
    }
    lastSize = size;
  }
  return null;
}

/** Self size and count per constructor (`(string)`, `(closure)`, … for the other kinds). */
export function heapByConstructor(path) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(path, 'utf8'));
  const fields = snapshot.meta.node_fields;
  const types = snapshot.meta.node_types[0];
  const width = fields.length;
  const at = (name) => fields.indexOf(name);
  const [TYPE, NAME, SIZE] = [at('type'), at('name'), at('self_size')];
  const byName = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + TYPE]];
    const key = type === 'object' || type === 'native' ? strings[nodes[i + NAME]] : `(${type})`;
    const size = nodes[i + SIZE];
    total += size;
    const entry = byName.get(key) ?? { size: 0, count: 0 };
    entry.size += size;
    entry.count += 1;
    byName.set(key, entry);
  }
  return { total, byName };
}

/** The constructors that grew most from `a` to `b` (bytes and objects added), largest first. */
export function heapGrowth(a, b, top = 5) {
  const grown = [];
  for (const [name, after] of b.byName) {
    const before = a.byName.get(name) ?? { size: 0, count: 0 };
    const bytes = after.size - before.size;
    if (bytes > 0) grown.push({ name, bytes, objects: after.count - before.count });
  }
  grown.sort((x, y) => y.bytes - x.bytes);
  return { totalBefore: a.total, totalAfter: b.total, top: grown.slice(0, top) };
}

/** Removes the snapshots (they are large). */
export function clearSnapshots(dir) {
  rmSync(dir, { recursive: true, force: true });
}
