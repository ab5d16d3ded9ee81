import type { Page } from 'playwright-core';

/**
 * Moves a page between the app's screens as a person does with the sidebar: the first screen
 * is loaded, the next ones are pushed to the router, so the shell and the remotes stay loaded
 * (a reload per screen took most of the time of the files that look at every screen).
 */
export interface Visitor {
  page: Page;
  /** Shows `path`: loaded when the page has none yet or `reload` is set, else pushed. */
  open: (path: string, options?: { reload?: boolean }) => Promise<void>;
  /** Resolves once no request has been in flight for `quietMs`; fails after `timeoutMs`. */
  quiet: (quietMs?: number, timeoutMs?: number) => Promise<void>;
}

export function visitor(page: Page): Visitor {
  let inFlight = 0;
  let last = Date.now();
  const started = () => {
    inFlight++;
    last = Date.now();
  };
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    last = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);

  return {
    page,
    open: async (path, { reload = false } = {}) => {
      if (reload || !page.url().startsWith('http')) {
        await page.goto(path);
        return;
      }
      const here = new URL(page.url());
      if (`${here.pathname}${here.search}` === path) return;
      // Every screen has its own h1: the next screen is there once the last one's is gone.
      await page.evaluate((to) => {
        for (const h1 of document.querySelectorAll('h1')) h1.setAttribute('data-visit-left', '');
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
        window.scrollTo(0, 0);
      }, path);
      await page.waitForFunction(() => !document.querySelector('h1[data-visit-left]'));
    },
    quiet: async (quietMs = 300, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (inFlight > 0 || Date.now() - last < quietMs) {
        if (Date.now() > deadline)
          throw new Error(
            `${page.url()}: ${inFlight} request(s) still in flight after ${timeoutMs} ms`,
          );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
