#!/usr/bin/env node
// Benchmark of the front-end (issue 8): the shell's critical JavaScript, the federated app
// against the same app in one bundle, and the sequential round trips before the chat screen
// can be used, measured in Chromium.
//
//   node bench/frontend/run.mjs      (or: BENCH_ONLY=frontend npm run bench)
//
// 1. `npm run build` (the four federated apps) and the one-bundle build (one-bundle.mjs).
// 2. Static: the scripts frontends/shell/dist/index.html loads, and every .js file each build
//    emitted, gzip (level 9) sizes.
// 3. The stack (bench profile; the gateway serves the federated build) with one workspace
//    (default chat prompt) and one member; the one-bundle build from a small static server
//    here that forwards /api to the gateway (same API, same cookie).
// 4. Chromium (Debian's, playwright-core; e2e/support/browser.ts flags), BENCH_ROUNDS (3)
//    cold loads of / per build, signed in: until the chat's message box is visible. Per load:
//      - critical JS: the JS received before anything rendered into #root;
//      - chat JS: every JS file loaded until the message box is visible (gzip);
//      - round trips: the longest chain of JS requests, each made by code of the one before
//        (CDP initiators; a script in index.html is 1), before the message box is visible.
// Figures: critical JS (federated), chat JS federated ÷ one bundle, round trips (federated).
import { createReadStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DATA_DIR, ROOT } from '../../infra/lib/paths.mjs';
import { prepare } from '../../load/run.mjs';
import { ensureChromium } from '../../scripts/setup.mjs';
import { freePort } from '../lib/proc.mjs';
import { buildAll, emit, fmt, log, median, row } from '../lib/report.mjs';
import { holdBenchLock, startBenchStack } from '../lib/stack.mjs';
import { buildOneBundle } from './one-bundle.mjs';

holdBenchLock();

const require = createRequire(import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONE = join(DATA_DIR, 'bench-one-bundle');
const APPS = ['shell', 'chat', 'generation', 'admin'];
const MESSAGE_BOX = 'Ask me a question';

const gzipCache = new Map();
const gz = (file) => {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(file), { level: 9 }).length);
  return gzipCache.get(file);
};
const kb = (bytes) => bytes / 1024;
const jsFiles = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(dir, f));

/** The file behind a URL path of a build. */
function fileOf(build, pathname) {
  if (build === 'one') return join(ONE, normalize(pathname));
  const m = /^\/remotes\/([a-z]+)\/(.*)$/.exec(pathname);
  return m
    ? join(ROOT, 'frontends', m[1], 'dist', normalize(m[2]))
    : join(ROOT, 'frontends/shell/dist', normalize(pathname));
}

/** Serves the one-bundle build; /api goes to the gateway. */
async function serveOneBundle(gatewayUrl) {
  const gateway = new URL(gatewayUrl);
  const types = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.svg': 'image/svg+xml',
    '.html': 'text/html',
  };
  const server = createServer((req, res) => {
    if (req.url.startsWith('/api/')) {
      const upstream = httpRequest(
        {
          host: gateway.hostname,
          port: gateway.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (up) => {
          res.writeHead(up.statusCode, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
      return;
    }
    const path = new URL(req.url, 'http://x').pathname;
    let file = join(ONE, normalize(path));
    if (!file.startsWith(ONE) || !existsSync(file) || statSync(file).isDirectory())
      file = join(ONE, 'index.html');
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(res);
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

async function loadOnce(browser, baseUrl, user, build) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  try {
    const login = await context.request.post('/api/login', {
      data: { username: user.username, password: user.password },
    });
    if (!login.ok()) throw new Error(`sign-in answered ${login.status()}`);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const mark = () => {
        const root = document.getElementById('root');
        if (root && root.childNodes.length > 0 && window.__firstRender === undefined)
          window.__firstRender = performance.now();
      };
      new MutationObserver(mark).observe(document, { childList: true, subtree: true });
      // Largest contentful paint: the latest candidate so far (Chromium reports it).
      new PerformanceObserver((list) => {
        const last = list.getEntries().at(-1);
        if (last) window.__lcp = last.startTime;
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const requests = new Map(); // requestId → { url, initiatorUrl, ts }
    cdp.on('Network.requestWillBeSent', (e) => {
      let initiatorUrl = e.initiator.url ?? '';
      for (let s = e.initiator.stack; s && !initiatorUrl; s = s.parent)
        initiatorUrl = s.callFrames.find((f) => f.url)?.url ?? '';
      requests.set(e.requestId, {
        url: e.request.url,
        type: e.type,
        initiatorUrl,
        initiatorType: e.initiator.type,
      });
    });
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByPlaceholder(MESSAGE_BOX).waitFor({ state: 'visible', timeout: 30_000 });
    const visible = await page.evaluate(() => performance.now());
    // Paints after the message box shows (a late image, the sidebar) may still be the largest.
    await page.waitForTimeout(500);
    const { firstRender, lcp, resources } = await page.evaluate(() => ({
      firstRender: window.__firstRender,
      lcp: window.__lcp,
      resources: performance
        .getEntriesByType('resource')
        .map((r) => ({ name: r.name, start: r.startTime, end: r.responseEnd })),
    }));
    const isJs = (url) => new URL(url).pathname.endsWith('.js');
    const js = resources.filter((r) => isJs(r.name) && r.end <= visible);
    const sizeOf = (url) => {
      const file = fileOf(build, new URL(url).pathname);
      return existsSync(file) ? gz(file) : 0;
    };
    const critical = js.filter((r) => r.end <= firstRender);
    // Sequential levels: a script requested by the document is 1; one requested by the
    // code of a script at level n is n + 1.
    const level = new Map();
    const ordered = [...requests.values()].filter((r) => isJs(r.url));
    const levelOf = (url, seen = new Set()) => {
      if (level.has(url)) return level.get(url);
      if (seen.has(url)) return 1;
      seen.add(url);
      const req = ordered.find((r) => r.url === url);
      const parent = req?.initiatorUrl && isJs(req.initiatorUrl) ? req.initiatorUrl : null;
      const l = parent ? levelOf(parent, seen) + 1 : 1;
      level.set(url, l);
      return l;
    };
    const loadedBeforeVisible = new Set(js.map((r) => r.name));
    const levels = ordered.filter((r) => loadedBeforeVisible.has(r.url)).map((r) => levelOf(r.url));
    const chain = [];
    // the deepest chain, for the log
    let deepest = ordered
      .filter((r) => loadedBeforeVisible.has(r.url))
      .sort((a, b) => levelOf(b.url) - levelOf(a.url))[0];
    while (deepest) {
      chain.unshift(new URL(deepest.url).pathname);
      deepest = ordered.find((r) => r.url === deepest.initiatorUrl);
    }
    return {
      firstRender,
      visible,
      lcp,
      criticalKb: kb(critical.reduce((s, r) => s + sizeOf(r.name), 0)),
      criticalFiles: critical.length,
      criticalList: critical.map(
        (r) => `${new URL(r.name).pathname} ${fmt(kb(sizeOf(r.name)), 1)}`,
      ),
      chatKb: kb(js.reduce((s, r) => s + sizeOf(r.name), 0)),
      chatFiles: js.length,
      trips: Math.max(0, ...levels),
      chain,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  log('front-end benchmark: critical JS, federated vs one bundle, round trips (Chromium)');
  await buildAll(ROOT);
  log('  building the one-bundle app …');
  await buildOneBundle(ONE);

  const html = readFileSync(join(ROOT, 'frontends/shell/dist/index.html'), 'utf8');
  const htmlScripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
  const htmlKb = kb(htmlScripts.reduce((s, src) => s + gz(fileOf('fed', src)), 0));
  const fedTotal = kb(
    APPS.flatMap((a) => jsFiles(join(ROOT, 'frontends', a, 'dist'))).reduce((s, f) => s + gz(f), 0),
  );
  const oneTotal = kb(jsFiles(ONE).reduce((s, f) => s + gz(f), 0));
  log(`  index.html scripts: ${htmlScripts.join(', ')} = ${fmt(htmlKb, 1)} KB gzip`);
  log(
    `  every JS file emitted: federated (4 builds) ${fmt(fedTotal, 1)} KB, one bundle ${fmt(oneTotal, 1)} KB gzip`,
  );

  const stack = await startBenchStack('frontend', { simulator: false });
  let one;
  let browser;
  try {
    const { users } = await prepare(stack, { workspaces: 1, users: 1 });
    one = await serveOneBundle(stack.url);
    const { chromium } = require('playwright-core');
    // A fresh machine has no browser yet: the benchmark brings it as `npm test` does.
    if (!process.env.CHROMIUM_PATH) log(`  chromium: ${await ensureChromium()}`);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const bases = { fed: stack.url, one: one.url };
    for (const b of ['fed', 'one']) await loadOnce(browser, bases[b], users[0], b); // warm-up
    log(`  ${ROUNDS} cold loads per build, signed in, until the message box is visible`);
    log(
      '  round  build  first render ms  usable ms  LCP ms  critical KB (files)  chat JS KB (files)  round trips',
    );
    const rounds = [];
    let chain = [];
    let criticalList = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const r = {};
      for (const b of round % 2 ? ['fed', 'one'] : ['one', 'fed']) {
        r[b] = await loadOnce(browser, bases[b], users[0], b);
        log(
          `  ${String(round).padStart(5)}  ${b.padEnd(5)}  ${fmt(r[b].firstRender).padStart(15)}  ${fmt(r[b].visible).padStart(9)}  ${fmt(r[b].lcp).padStart(6)}  ${`${fmt(r[b].criticalKb, 1)} (${r[b].criticalFiles})`.padStart(19)}  ${`${fmt(r[b].chatKb, 1)} (${r[b].chatFiles})`.padStart(18)}  ${String(r[b].trips).padStart(11)}`,
        );
      }
      chain = r.fed.chain;
      criticalList = r.fed.criticalList;
      rounds.push({
        critical: r.fed.criticalKb,
        fedChat: r.fed.chatKb,
        oneChat: r.one.chatKb,
        ratio: r.fed.chatKb / r.one.chatKb,
        trips: r.fed.trips,
        oneTrips: r.one.trips,
        fedVisible: r.fed.visible,
        oneVisible: r.one.visible,
        fedLcp: r.fed.lcp,
        oneLcp: r.one.lcp,
      });
    }
    log(`  deepest chain (federated): ${chain.join(' → ')}`);
    log(`  critical JS (federated, last round), KB gzip: ${criticalList.join(', ')}`);
    const m = (k) => median(rounds.map((r) => r[k]));
    emit([
      row({
        measure: "front-end: shell's critical JS (received before the first render), gzip",
        value: m('critical'),
        op: '<=',
        target: 120,
        unit: ' KB',
        digits: 1,
        detail: `index.html itself loads ${fmt(htmlKb, 1)} KB (${htmlScripts.length} script)`,
      }),
      row({
        measure: 'front-end: JS to the usable chat screen, federated ÷ one bundle (gzip)',
        value: m('ratio'),
        op: '<=',
        target: 1.15,
        unit: 'x',
        detail: `${fmt(m('fedChat'), 1)} vs ${fmt(m('oneChat'), 1)} KB; every JS file emitted: ${fmt(fedTotal, 1)} vs ${fmt(oneTotal, 1)} KB (${fmt(fedTotal / oneTotal, 2)}x); usable after ${fmt(m('fedVisible'))} vs ${fmt(m('oneVisible'))} ms`,
      }),
      row({
        measure: 'front-end: chat usable, federated ÷ one bundle (time, Chromium)',
        value: m('fedVisible') / m('oneVisible'),
        op: '<=',
        target: 1.2,
        unit: 'x',
        detail: `${fmt(m('fedVisible'))} vs ${fmt(m('oneVisible'))} ms`,
      }),
      {
        measure:
          'front-end: largest contentful paint of the chat screen (Chromium, cold, signed in)',
        value: m('fedLcp'),
        figure: `${fmt(m('fedLcp'))} ms`,
        target: '–',
        result: 'info',
        detail: `one bundle: ${fmt(m('oneLcp'))} ms`,
      },
      row({
        measure:
          'front-end: sequential JS round trips before the chat message box is visible (Chromium)',
        value: m('trips'),
        op: '<=',
        target: 2,
        digits: 0,
        detail: `one bundle: ${fmt(m('oneTrips'))}; chain ${chain.map((p) => p.split('/').pop()).join(' → ')}`,
      }),
    ]);
  } finally {
    await browser?.close();
    await one?.close();
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`front-end benchmark failed: ${err.stack ?? err}\n`);
    process.exit(1);
  },
);
