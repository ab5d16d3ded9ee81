import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export interface StackInfo {
  url: string;
  services: Record<string, string>;
  simulatorUrl?: string;
  superAdmin: { username: string; password: string };
  /** Kills and restarts the stack's processes (see global-setup.mjs). */
  controlUrl: string;
  /** The OpenID Connect provider the auth service signs users in with (oidc-provider.mjs). */
  sso: { issuerUrl: string; buttonLabel: string };
}

export function stack(): StackInfo {
  const raw = process.env.AICT_E2E_STACK;
  if (!raw)
    throw new Error(
      'AICT_E2E_STACK is not set: run the e2e tests through jest with e2e/jest.config.js',
    );
  return JSON.parse(raw) as StackInfo;
}

/** Debian's Chromium, with the flags this machine needs (no network beyond loopback). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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
}

export async function newPage(
  browser: Browser,
  options: { width?: number; height?: number; setupChecklist?: 'keep' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: stack().url,
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
  });
  const page = await context.newPage();
  // The super admin's set-up checklist shows on the home screen on the first visit of a session
  // while set-up is unfinished (as on these stacks). It is a card in the page (a region, not a
  // dialog): it blocks nothing, but it arrives a moment after load and moves the screen below
  // it down, and its links and buttons ('Later', 'Open Prompts'…) would be extra matches for
  // the tests' locators. So the tests close it with Later, as a user would, whenever it is
  // visible (first-run tests look at it on their own pages with `setupChecklist: 'keep'`).
  if (options.setupChecklist !== 'keep') {
    const checklist = page
      .getByRole('region')
      .filter({ has: page.locator('#setup-checklist-title') });
    await page.addLocatorHandler(checklist, async () => {
      // The checklist can leave on its own between being seen and the click (the page moved
      // on): the handler is done when it is hidden, without waiting for the click's timeout.
      const later = checklist
        .getByRole('button', { name: 'Later', exact: true })
        .click()
        .catch(async (error: unknown) => {
          if (await checklist.isVisible()) throw error;
        });
      await Promise.race([later, checklist.waitFor({ state: 'hidden' })]);
    });
  }
  return { context, page };
}
