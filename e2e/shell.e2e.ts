import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser';
import { signInThroughUi, superAdmin } from './support/session';

/** Registers a fresh user through the gateway, in the page's own cookie jar. */
async function registerAndSignIn(page: Page) {
  const name = `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const res = await page.request.post('/api/register', {
    data: { username: name, email: `${name}@example.com`, password: 'correct-horse-1' },
  });
  expect(res.status()).toBe(201);
  return name;
}

describe('the shell, as the gateway serves it', () => {
  let browser: Browser;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  function watchConsole(page: Page) {
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
  }

  it('when someone opens a path the product does not have, then the not-found screen shows', async () => {
    const { context, page } = await newPage(browser);
    watchConsole(page);

    await page.goto('/no/such/page');

    await expect(page.getByText('404 Page Not Found').waitFor()).resolves.toBeUndefined();
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(
      true,
    );
    await context.close();
  });

  it('when a signed-out visitor opens a protected page, then they are sent to the sign-in page', async () => {
    const { context, page } = await newPage(browser);
    watchConsole(page);

    await page.goto('/stats');

    await page.waitForURL('**/auth');
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Register' }).isVisible()).toBe(true);
    await context.close();
  });

  it('when a newly registered user opens the app, then it says they are in no workspace yet and shows the username to pass on', async () => {
    const { context, page } = await newPage(browser);
    watchConsole(page);
    const name = await registerAndSignIn(page);

    await page.goto('/');

    await page.getByText('You are not in a workspace yet').waitFor();
    expect(await page.getByText(name, { exact: true }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: 'Check again' }).isVisible()).toBe(true);
    await context.close();
  });

  it('when a remote fails to load, then its place shows the error and Retry while the rest of the shell works', async () => {
    const { context, page } = await newPage(browser);
    watchConsole(page);
    // Someone in a workspace (a newly registered user sees the no-workspace screen instead).
    const admin = superAdmin();
    await signInThroughUi(page, admin.username, admin.password);
    let failing = true;
    await page.route('**/remotes/generation/remoteEntry.js', (route) =>
      failing ? route.fulfill({ status: 404, body: 'gone' }) : route.continue(),
    );

    await page.goto('/stats');
    const alert = page
      .getByRole('alert')
      .filter({ has: page.getByRole('button', { name: 'Retry' }) });
    await alert.waitFor();

    // The sidebar still works: another page opens.
    await page.getByRole('link', { name: /GPT$/ }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.getByText('404 Page Not Found').count()).toBe(0);

    // Back on the broken page (client-side), the error shows again; once the remote is
    // reachable, Retry brings it in without reloading the shell.
    await page.getByRole('link', { name: 'Stats' }).first().click();
    await alert.waitFor();
    failing = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Stats' }).first().waitFor();
    expect(await alert.count()).toBe(0);
    await context.close();
  });

  it('when the pages above loaded, then the browser reported no Content-Security-Policy violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
