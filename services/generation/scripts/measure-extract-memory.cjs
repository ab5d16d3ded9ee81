#!/usr/bin/env node
// Memory of reading hostile attachments (Hardening issue, item 1): the resident memory (RSS)
// of this process (which plays the service: it holds the file and calls extractText) and of
// the reading child processes, sampled every 10 ms, for one and for four bombs at once.
//
//   node --expose-gc services/generation/scripts/measure-extract-memory.cjs
//   node --expose-gc --conditions=source services/generation/scripts/measure-extract-memory.cjs --service
//
// It runs the TypeScript sources (compiled on load by @swc/core) with the service's defaults
// (EXTRACT_MAX_MEMORY_MB, EXTRACT_TIMEOUT_MS, EXTRACT_MAX_CHARS). Prints figures; judges nothing.
// --service: the real generation service (with the workspace and prompt services and the
// provider simulator in this process, as its tests run it; infrastructure up) answers
// POST /api/generate with bombs attached, one and four at once; this process's RSS is then
// an upper bound for the generation service's own.
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

const src = join(__dirname, '..', 'src');
const { extractText } = require(join(src, 'lib/extract-text.ts'));
const { docxBomb, manyPagePdf } = require(join(src, 'test-support/bombs.ts'));

const limits = {
  timeoutMs: 10_000,
  maxChars: 100_000,
  maxMemoryMb: Number(process.env.EXTRACT_MAX_MEMORY_MB ?? 128),
};
const mb = (bytes) => Math.round(bytes / 1024 / 1024);

function rssOf(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
function childrenRss() {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) total += rssOf(entry);
    } catch {
      /* gone */
    }
  }
  return total;
}

async function measure(name, files, kind) {
  global.gc?.();
  const before = process.memoryUsage.rss();
  const peak = { self: before, children: 0, total: before };
  const timer = setInterval(() => {
    const self = process.memoryUsage.rss();
    const children = childrenRss();
    peak.self = Math.max(peak.self, self);
    peak.children = Math.max(peak.children, children);
    peak.total = Math.max(peak.total, self + children);
  }, 10);
  const started = Date.now();
  const outcomes = await Promise.all(
    files.map((bytes) =>
      extractText(bytes, kind, limits).then(
        (text) => `read ${text.length} chars`,
        (err) => err.limitMessage ?? err.message,
      ),
    ),
  );
  clearInterval(timer);
  console.log(
    `${name.padEnd(44)} service ${mb(before)} -> peak ${mb(peak.self)} MB, children peak ${mb(peak.children)} MB, ` +
      `total peak ${mb(peak.total)} MB, ${Date.now() - started} ms: ${[...new Set(outcomes)].join(' | ')}`,
  );
}

async function measureService() {
  const { startHarness } = require(join(src, 'test-support/harness.ts'));
  const { formWith } = require(join(src, 'test-support/fixtures.ts'));
  const t = await startHarness();
  try {
    const ws = await t.newWorkspace();
    const promptId = await t.newPrompt(ws, { template: 'You are a helpful assistant.' });
    const files = {
      'docx 600 MB (declares 1 KB)': [docxBomb(600, { lie: true }), 'bomb.docx'],
      'docx 45 MB (under the unpack cap)': [docxBomb(45), 'heavy.docx'],
      'pdf 10,000 pages': [await manyPagePdf(10_000), 'pages.pdf'],
    };
    for (const [name, [bytes, filename]] of Object.entries(files)) {
      const up = await t.call('POST', '/api/uploads/chat-attachments', {
        as: ws.user,
        headers: { 'x-workspace-id': String(ws.id) },
        form: formWith([{ bytes, name: filename }]),
      });
      const id = up.body.files[0].id;
      const generate = async () => {
        const res = await t.call('POST', '/api/generate', {
          as: ws.user,
          body: { promptId, inputs: { message: 'read' }, attachments: [id] },
        });
        return `${res.status} ${res.body.message ?? ''}`;
      };
      for (const copies of [1, 4]) {
        await measureRequests(`service: ${copies}x ${name}`, () =>
          Promise.all(Array.from({ length: copies }, generate)),
        );
      }
    }
  } finally {
    await t.stop();
  }
}

async function measureRequests(name, run) {
  global.gc?.();
  const before = process.memoryUsage.rss();
  const peak = { self: before, children: 0, total: before };
  const timer = setInterval(() => {
    const self = process.memoryUsage.rss();
    const children = childrenRss();
    peak.self = Math.max(peak.self, self);
    peak.children = Math.max(peak.children, children);
    peak.total = Math.max(peak.total, self + children);
  }, 10);
  const outcomes = await run();
  clearInterval(timer);
  console.log(
    `${name.padEnd(52)} process ${mb(before)} -> peak ${mb(peak.self)} MB, readers peak ${mb(peak.children)} MB, ` +
      `total peak ${mb(peak.total)} MB: ${[...new Set(outcomes)].join(' | ')}`,
  );
}

async function main() {
  if (process.argv.includes('--service')) return measureService();
  console.log(`limits: ${JSON.stringify(limits)}; node ${process.version}`);
  const truthful = docxBomb(600);
  const liar = docxBomb(600, { lie: true });
  const heavy = docxBomb(45);
  const pdf = await manyPagePdf(10_000);
  console.log(
    `sizes: docx bomb ${Math.round(liar.length / 1024)} KB, 10,000-page PDF ${Math.round(pdf.length / 1024)} KB`,
  );
  for (const copies of [1, 4]) {
    await measure(`${copies}x docx 600 MB (declared)`, Array(copies).fill(truthful), 'docx');
    await measure(`${copies}x docx 600 MB (declares 1 KB)`, Array(copies).fill(liar), 'docx');
    await measure(
      `${copies}x docx 45 MB (under the unpack cap)`,
      Array(copies).fill(heavy),
      'docx',
    );
    await measure(`${copies}x pdf 10,000 pages`, Array(copies).fill(pdf), 'pdf');
  }
}
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
