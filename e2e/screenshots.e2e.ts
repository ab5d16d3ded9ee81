import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type pixelmatchFn from 'pixelmatch' with { 'resolution-mode': 'import' };
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createMember, signIn, type ApiClient } from './support/api';
import { launchBrowser, newPage, stack } from './support/browser';
import { superAdmin } from './support/session';
import { visitor, type Visitor } from './support/visit';

// Issue 16: a screenshot of every screen at 1440 and 375 px in both themes, compared with the
// committed baselines in e2e/screenshots/ (pixelmatch, threshold 0.1; a screen fails when more
// than 1 % of its pixels differ). `UPDATE_SCREENSHOTS=1` writes the baselines instead; an
// intended change updates them in the same commit. Dates, times and charts are masked.

jest.setTimeout(120_000);

const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const BASELINES = join(__dirname, 'screenshots');
const ARTIFACTS = join(__dirname, '.artifacts', 'screenshots');
const MAX_DIFF_SHARE = 0.01;

// pixelmatch is an ES module: loaded with import() from this CommonJS file.
let pixelmatch: typeof pixelmatchFn;

const WORKSPACE = 'Screenshot Studio';
const ADMIN = 'shotadmin';
const ADMIN_PASSWORD = `${ADMIN}-pw`;

const SIZES = [
  { width: 1440, height: 900 },
  { width: 375, height: 812 },
] as const;
const THEMES = ['light', 'dark'] as const;

/** Regions that change from run to run, painted over with a solid box. */
const MASKED = [
  'time',
  '[data-dynamic]',
  '[data-shot-mask]',
  'canvas',
  '.recharts-responsive-container',
  '.recharts-wrapper',
  'main img',
].join(', ');

/** Text that names a date, a time, an age or an id (marked `data-shot-mask` before the shot). */
const DATE_TEXT = new RegExp(
  [
    String.raw`\b\d{1,2}:\d{2}\b`,
    String.raw`\b\d{4}-\d{2}(-\d{2})?\b`,
    String.raw`\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b`,
    String.raw`\b20\d{2}\b`,
    String.raw`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}\b`,
    String.raw`\b\d{1,2}\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)`,
    String.raw`\b(January|February|March|April|May|June|July|August|September|October|November|December)\b`,
    String.raw`\bago\b`,
    String.raw`\bjust now\b`,
    // ids (uuids) that differ from run to run
    String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-`,
  ].join('|'),
  'i',
);

const FROZEN_STYLE = `
*, *::before, *::after {
  animation: none !important;
  transition: none !important;
  caret-color: transparent !important;
}`;

interface Data {
  workspaceId: number;
  textPromptId: string;
}

interface Screen {
  name: string;
  path: (data: Data) => string;
  /** Resolves once the screen shows its content. */
  ready: (page: Page) => Promise<unknown>;
  signedOut?: boolean;
  /** More regions of this screen that change from run to run (masked as MASKED is). */
  mask?: string;
}

const heading = (page: Page, name: string | RegExp) =>
  page.getByRole('heading', { level: 1, name }).waitFor();

const SCREENS: Screen[] = [
  {
    name: 'sign-in',
    path: () => '/auth',
    ready: (p) => p.getByLabel('Username').waitFor(),
    signedOut: true,
  },
  {
    name: 'chat',
    path: () => '/',
    ready: (p) => p.getByPlaceholder('Ask me a question').waitFor(),
  },
  {
    name: 'text-generation',
    path: () => '/text-generation',
    ready: (p) => p.getByRole('button', { name: 'Generate Text' }).waitFor(),
  },
  {
    name: 'image-generation',
    path: () => '/image-generation',
    ready: (p) => p.getByRole('button', { name: 'Generate Image' }).waitFor(),
  },
  {
    name: 'history',
    path: () => '/history?type=text',
    ready: (p) => p.getByPlaceholder('Search content...').waitFor(),
  },
  { name: 'gallery', path: () => '/gallery', ready: (p) => heading(p, /./) },
  {
    name: 'stats',
    path: () => '/stats',
    ready: (p) => p.getByLabel('Images Generated: 1').waitFor(),
  },
  { name: 'prompts', path: () => '/prompts', ready: (p) => heading(p, /./) },
  {
    name: 'prompt',
    path: (d) => `/prompts/${d.textPromptId}`,
    ready: (p) => heading(p, 'Product slogan'),
  },
  { name: 'settings', path: () => '/settings', ready: (p) => heading(p, /./) },
  { name: 'usage', path: () => '/usage', ready: (p) => heading(p, /./) },
  // The entries arrive through the outbox in no fixed order, with ids of their own: the table
  // is masked (its layout is what the shot keeps).
  { name: 'audit', path: () => '/audit', ready: (p) => heading(p, /./), mask: 'table tbody' },
  { name: 'api-tokens', path: () => '/api-tokens', ready: (p) => heading(p, /./) },
  { name: 'not-found', path: () => '/no-such-screen', ready: (p) => heading(p, /./) },
];

/** The fixed data every screen shows: one workspace, its admin, prompts and two generations. */
async function prepare(): Promise<Data> {
  const baseUrl = stack().url;
  const sa = await signIn(baseUrl, superAdmin().username, superAdmin().password);
  const { id: workspaceId } = await sa.ok<{ id: number }>('POST', '/api/workspaces', {
    body: { name: WORKSPACE },
  });
  await sa.ok('PUT', `/api/workspaces/${workspaceId}/settings/openai_api_key`, {
    body: { value: 'sk-e2e-screenshots' },
    workspaceId,
  });
  const admin = await createMember(sa, baseUrl, ADMIN, workspaceId, 'admin');
  const prompt = (
    name: string,
    template: string,
    contentType: 'text' | 'image',
    model: string,
    isDefault = false,
  ) =>
    admin.ok<{ id: string }>('POST', '/api/prompts', {
      body: {
        name,
        template,
        category: 'Marketing',
        contentType,
        model,
        isPublic: false,
        isDefault,
        workspaceId,
      },
      workspaceId,
    });
  await prompt('Chat default', '{message}', 'text', 'gpt-4o', true);
  const text = await prompt('Product slogan', 'Write a slogan about {product}.', 'text', 'gpt-4o');
  const image = await prompt('Poster', 'A poster of {subject}', 'image', 'dall-e-3');
  const generate = (promptId: string, inputs: Record<string, string>) =>
    admin.ok('POST', '/api/generate', { body: { promptId, inputs, workspaceId }, workspaceId });
  await generate(text.id, { product: 'a red bicycle' });
  await generate(image.id, { subject: 'a lighthouse at dawn' });
  await settled(admin, workspaceId);
  return { workspaceId, textPromptId: text.id };
}

/** Waits until the month's usage counts both generations (usage settles after the answer). */
async function settled(admin: ApiClient, workspaceId: number) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const summary = await admin.ok<{ byModel: Array<{ calls: number }> }>(
      'GET',
      `/api/usage/summary?workspaceId=${workspaceId}`,
      { workspaceId },
    );
    if (summary.byModel.reduce((sum, row) => sum + row.calls, 0) >= 2) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the usage of the two generations never showed');
}

async function openContext(
  browser: Browser,
  size: { width: number; height: number },
  theme: string,
  workspaceId: number,
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, size);
  await opened.context.addInitScript(
    ([t, ws]) => {
      localStorage.setItem('theme', t);
      localStorage.setItem('language', 'en');
      localStorage.setItem('currentWorkspaceId', ws);
    },
    [theme, String(workspaceId)] as const,
  );
  return opened;
}

/** The screen once settled: network quiet, fonts loaded, dynamic regions marked for masking. */
async function shoot(visit: Visitor, screen: Screen, data: Data): Promise<Buffer> {
  const { page } = visit;
  await visit.open(screen.path(data));
  await screen.ready(page);
  await visit.quiet();
  await page.locator('.wk-spinner, .wk-skeleton').first().waitFor({ state: 'detached' });
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await page.evaluate(
    ({ source, stand }) => {
      const pattern = new RegExp(source, 'i');
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const dated: Text[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node as Text;
        if (pattern.test(text.textContent ?? '') || text.parentElement?.closest('time'))
          dated.push(text);
      }
      // A masked text is painted over, but its length would still move what follows it ("1
      // minute ago" against "less than a minute ago" wraps a row or not): it gets one text of
      // one length, so that the layout is the same in every run.
      for (const text of dated) {
        text.parentElement?.setAttribute('data-shot-mask', '');
        text.textContent = stand;
      }
    },
    { source: DATE_TEXT.source, stand: 'Date and time' },
  );
  return page.screenshot({
    animations: 'disabled',
    caret: 'hide',
    style: FROZEN_STYLE,
    mask: [page.locator(screen.mask ? `${MASKED}, ${screen.mask}` : MASKED)],
    maskColor: '#7f7f7f',
  });
}

/** A PNG's pixels, RGBA. sharp (native): pngjs decodes a 1440 px shot in over 1 s under jest. */
async function pixels(png: Buffer | string) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Share of differing pixels, writing the actual and the diff PNG under e2e/.artifacts/. */
async function compare(
  name: string,
  actualBytes: Buffer,
): Promise<{ share: number; message: string }> {
  const baselineFile = join(BASELINES, `${name}.png`);
  if (UPDATE) {
    mkdirSync(BASELINES, { recursive: true });
    writeFileSync(baselineFile, actualBytes);
    return { share: 0, message: '' };
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const actualFile = join(ARTIFACTS, `${name}.actual.png`);
  if (!existsSync(baselineFile)) {
    writeFileSync(actualFile, actualBytes);
    return {
      share: 1,
      message: `no baseline e2e/screenshots/${name}.png: run the e2e test with UPDATE_SCREENSHOTS=1 to write it (this shot: ${actualFile})`,
    };
  }
  const [baseline, actual] = await Promise.all([pixels(baselineFile), pixels(actualBytes)]);
  if (baseline.width !== actual.width || baseline.height !== actual.height) {
    writeFileSync(actualFile, actualBytes);
    return {
      share: 1,
      message: `${name}: ${actual.width}×${actual.height} against a ${baseline.width}×${baseline.height} baseline (see ${actualFile})`,
    };
  }
  const { width, height } = actual;
  const diff = Buffer.alloc(width * height * 4);
  const differing = pixelmatch(baseline.data, actual.data, diff, width, height, {
    threshold: 0.1,
  });
  const share = differing / (width * height);
  if (share <= MAX_DIFF_SHARE) return { share, message: '' };
  const diffFile = join(ARTIFACTS, `${name}.diff.png`);
  writeFileSync(actualFile, actualBytes);
  await sharp(diff, { raw: { width, height, channels: 4 } })
    .png()
    .toFile(diffFile);
  return {
    share,
    message: `${name}: ${(share * 100).toFixed(2)} % of the pixels differ from e2e/screenshots/${name}.png (actual ${actualFile}, diff ${diffFile}); if the change is intended, run with UPDATE_SCREENSHOTS=1 and commit the baseline`,
  };
}

describe('screenshots of every screen against the baselines', () => {
  let browser: Browser;
  let data: Data;
  const shares: Record<string, number> = {};

  beforeAll(async () => {
    pixelmatch = (await import('pixelmatch')).default;
    browser = await launchBrowser();
    data = await prepare();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    if (!UPDATE) {
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, 'shares.json'), JSON.stringify(shares, null, 2));
    }
  });

  for (const size of SIZES)
    for (const theme of THEMES)
      describe(`at ${size.width} px in the ${theme} theme`, () => {
        let signedIn: { context: BrowserContext; visit: Visitor };

        beforeAll(async () => {
          const opened = await openContext(browser, size, theme, data.workspaceId);
          signedIn = { context: opened.context, visit: visitor(opened.page) };
          const login = await signedIn.context.request.post('/api/login', {
            data: { username: ADMIN, password: ADMIN_PASSWORD },
          });
          if (!login.ok()) throw new Error(`sign-in of ${ADMIN}: ${login.status()}`);
        });
        afterAll(() => signedIn?.context.close());

        for (const screen of SCREENS)
          it(`when ${screen.name} is shot, then it matches e2e/screenshots/${screen.name}-${size.width}-${theme}.png`, async () => {
            const name = `${screen.name}-${size.width}-${theme}`;
            let shot: Buffer;
            if (screen.signedOut) {
              const own = await openContext(browser, size, theme, data.workspaceId);
              try {
                shot = await shoot(visitor(own.page), screen, data);
              } finally {
                await own.context.close();
              }
            } else {
              shot = await shoot(signedIn.visit, screen, data);
            }
            const { share, message } = await compare(name, shot);
            shares[name] = share;
            if (message) throw new Error(message);
          });
      });
});
