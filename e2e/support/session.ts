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
