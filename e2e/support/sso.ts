import type { Page } from 'playwright-core';
import { stack } from './browser';

/** An account at the identity provider the e2e stack signs users in with (oidc-provider.mjs). */
export interface ProviderAccount {
  username: string;
  password: string;
  email: string;
  /** The `groups` claim: `aict:<workspace name>:admin|user` maps to a membership. */
  groups: string[];
}

/** The provider's issuer URL and the label of the sign-in page's "Sign in with …" link. */
export function sso() {
  return stack().sso;
}

async function control(method: 'PUT' | 'PATCH', sub: string, body: unknown) {
  const res = await fetch(`${sso().issuerUrl}/test/accounts/${encodeURIComponent(sub)}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 204) throw new Error(`${method} account ${sub} answered ${res.status}`);
}

/** Creates or replaces the account `sub` at the provider (as its administrator would). */
export function setProviderAccount(sub: string, account: ProviderAccount) {
  return control('PUT', sub, account);
}

/** Changes the account's groups at the provider (seen at the account's next sign-in). */
export function setProviderGroups(sub: string, groups: string[]) {
  return control('PATCH', sub, { groups });
}

/** The group that makes its members `role` in the workspace named `workspaceName`. */
export function workspaceGroup(workspaceName: string, role: 'admin' | 'user') {
  return `aict:${workspaceName}:${role}`;
}

/** Whether the page is at the product's home screen (not the provider, not /auth). */
const atHome = (url: URL) => url.origin === stack().url && url.pathname === '/';

/**
 * Signs in through single sign-on as a person would: "Sign in with …" on /auth, then, on the
 * provider's own pages, the login form and the consent form if the provider shows them (one
 * that still has a session of this browser asks for neither), until back in the product.
 * Says which of the provider's pages were shown.
 */
export async function signInThroughSso(page: Page, account: ProviderAccount) {
  const provider = new URL(sso().issuerUrl).origin;
  const atProviderPage = (url: URL) =>
    url.origin === provider && url.pathname.startsWith('/interaction/');
  // the callback sends the browser back to /auth?sso=failed when it refuses the answer
  const refused = (url: URL) =>
    url.origin === stack().url && url.searchParams.get('sso') === 'failed';
  const shown = { login: false, consent: false };
  const login = page.getByRole('button', { name: 'Sign in', exact: true });
  const consent = page.getByRole('button', { name: 'Allow', exact: true });

  await page.goto('/auth');
  await page.getByRole('link', { name: `Sign in with ${sso().buttonLabel}` }).click();
  for (let step = 0; step < 4; step++) {
    await page.waitForURL((url) => atHome(url) || atProviderPage(url) || refused(url), {
      timeout: 30_000,
    });
    if (atHome(new URL(page.url()))) return shown;
    if (refused(new URL(page.url())))
      throw new Error('the product refused the sign-in: it says "Single sign-on failed"');
    const before = page.url();
    await login.or(consent).first().waitFor({ timeout: 30_000 });
    if (await login.isVisible()) {
      if (shown.login)
        throw new Error(`the provider refused the sign-in: ${await page.innerText('main')}`);
      shown.login = true;
      await page.getByLabel('Username').fill(account.username);
      await page.getByLabel('Password').fill(account.password);
      await login.click();
    } else {
      shown.consent = true;
      await consent.click();
    }
    await page.waitForURL((url) => url.href !== before, { timeout: 30_000 });
  }
  throw new Error(`single sign-on did not come back to the product (at ${page.url()})`);
}
