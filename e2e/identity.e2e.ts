import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser';
import { workspaceNames, signInThroughUi, superAdmin, uniqueName } from './support/session';

describe('identity and tenancy, end to end', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('when a visitor registers, then they are signed in, and signing out and in again works', async () => {
    const { context, page } = await newPage(browser);
    const name = uniqueName('reg');

    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Username').fill(name);
    await page.getByLabel('Email').fill(`${name}@example.com`);
    await page.getByLabel('Password').fill('secret-pass-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(`Welcome, ${name}!`).waitFor();
    await page.waitForURL((url) => url.pathname === '/');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/auth');
    await signInThroughUi(page, name, 'secret-pass-1');
    await page.getByText(`Welcome back, ${name}!`).waitFor();
    await context.close();
  });

  it('when the super administrator creates a workspace and a user and assigns them, then that user sees only that workspace, with the admin section only where their role allows', async () => {
    const admin = superAdmin();
    const workspace = uniqueName('Team ');
    const member = uniqueName('mem');
    const { context, page } = await newPage(browser);
    await signInThroughUi(page, admin.username, admin.password);

    // Create the workspace.
    await page.goto('/settings?tab=workspaces');
    await page.getByRole('button', { name: 'Create Workspace' }).first().click();
    await page.getByRole('dialog').getByLabel('Name').fill(workspace);
    await page.getByRole('dialog').getByRole('button', { name: 'Create Workspace' }).click();
    await page.getByText('Workspace created').first().waitFor();

    // Create the user.
    await page.goto('/settings?tab=users');
    const form = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Add User' }) });
    await form.getByLabel('Username').fill(member);
    await form.getByLabel('Email').fill(`${member}@example.com`);
    await form.getByLabel('Password').fill('member-pass-1');
    await form.getByRole('button', { name: 'Add User' }).click();
    await page.getByText('User Created').first().waitFor();

    // Assign the user to the workspace as an ordinary user.
    await page.goto('/settings?tab=workspaces');
    await page.getByRole('button', { name: `Assign users to ${workspace}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('User').selectOption({ label: `${member} (${member}@example.com)` });
    await dialog.getByLabel('Role').selectOption('user');
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await page.getByText('User Added to Workspace').first().waitFor();
    await context.close();

    // The member signs in: only that workspace, no admin section.
    const other = await newPage(browser);
    await signInThroughUi(other.page, member, 'member-pass-1');
    await other.page.getByRole('button', { name: `Workspace: ${workspace}` }).waitFor();
    expect(await workspaceNames(other.page)).toEqual([workspace]);
    expect(await other.page.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await other.page.goto('/prompts');
    await other.page.getByText('Admin Access Required').first().waitFor();
    await other.context.close();
  });

  it('when a user picks a theme, then it survives a reload', async () => {
    const { context, page } = await newPage(browser);
    const admin = superAdmin();
    await signInThroughUi(page, admin.username, admin.password);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    const before = await isDark();

    await page.getByRole('button', { name: /Switch to (dark|light) theme/ }).click();
    expect(await isDark()).toBe(!before);
    await page.reload();
    await page.getByRole('button', { name: 'Log out' }).waitFor();

    expect(await isDark()).toBe(!before);
    await context.close();
  });

  it('when an API key is saved, then the settings page never shows it in full, even after a reload', async () => {
    const { context, page } = await newPage(browser);
    const admin = superAdmin();
    const key = `sk-e2e-${uniqueName('k')}-abcdefghijklmnop`;
    await signInThroughUi(page, admin.username, admin.password);

    await page.goto('/settings?tab=api-keys');
    const field = page.getByPlaceholder(/^sk-/).first();
    await field.fill(key);
    await page
      .getByRole('button', { name: /Save (Workspace|Global) API Key/ })
      .first()
      .click();
    await page.getByText('API Key Updated').first().waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Test Connection' }).first().waitFor();

    const html = await page.content();
    const values = await page
      .locator('input')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(html).not.toContain(key);
    expect(values).not.toContain(key);
    await context.close();
  });
});
