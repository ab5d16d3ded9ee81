import type { Page } from 'playwright-core';
import { stack } from './browser';

export function uniqueName(prefix = 'e2e'): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Signs in through the /auth page, as a person would. */
export async function signInThroughUi(page: Page, username: string, password: string) {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

export function superAdmin() {
  return stack().superAdmin;
}

const switcherOptions = (page: Page) => page.locator('[role="option"][data-workspace-id]');

/**
 * Does `step` with the header's switcher open. The super admin's set-up checklist can open
 * over the page a moment after it loads; closing it (browser.ts) closes the switcher too, so
 * a step that found the switcher gone opens it again.
 */
async function withSwitcher<T>(page: Page, step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await switcherOptions(page).first().isVisible())) {
        await page.getByRole('button', { name: /^Workspace:/ }).click();
        await switcherOptions(page).first().waitFor({ timeout: 5_000 });
      }
      return await step();
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

/** Switches workspace with the header's switcher, as a person would (menu, then the one). */
export async function chooseWorkspace(page: Page, workspaceId: number | string) {
  await withSwitcher(page, () =>
    page.locator(`[role="option"][data-workspace-id="${workspaceId}"]`).click({ timeout: 5_000 }),
  );
  await switcherOptions(page).first().waitFor({ state: 'detached' });
}

/** The workspaces the header's switcher offers, by name. */
export async function workspaceNames(page: Page): Promise<string[]> {
  // The switcher's options only (the language picker's <option>s have the role too).
  const names = await withSwitcher(page, () =>
    switcherOptions(page).evaluateAll((options) =>
      options.map((option) => option.getAttribute('title') ?? ''),
    ),
  );
  await page.keyboard.press('Escape');
  return names;
}
