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

/** Switches workspace with the header's switcher, as a person would (menu, then the one). */
export async function chooseWorkspace(page: Page, workspaceId: number | string) {
  const option = page.locator(`[role="option"][data-workspace-id="${workspaceId}"]`);
  await page.getByRole('button', { name: /^Workspace:/ }).click();
  await option.click();
  await page.getByRole('listbox').waitFor({ state: 'detached' });
}

/** The workspaces the header's switcher offers, by name. */
export async function workspaceNames(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: /^Workspace:/ }).click();
  // The switcher's options only (the language picker's <option>s have the role too).
  const names = await page
    .locator('[role="option"][data-workspace-id]')
    .evaluateAll((options) => options.map((option) => option.getAttribute('title') ?? ''));
  await page.keyboard.press('Escape');
  return names;
}
