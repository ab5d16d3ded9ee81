import type { Browser, Page } from 'playwright-core';
import { signIn, type ApiClient } from './support/api';
import { launchBrowser, newPage, stack } from './support/browser';
import { superAdmin, uniqueName, workspaceNames } from './support/session';
import {
  setProviderAccount,
  setProviderGroups,
  signInThroughSso,
  workspaceGroup,
  type ProviderAccount,
} from './support/sso';

/**
 * The switcher's workspaces once they read `expected` (or after 15 s, whatever they are): the
 * list arrives a moment after the page, and a first look may find it still empty.
 */
async function workspaceNamesOnceLoaded(page: Page, expected: string[]): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const names = await workspaceNames(page);
    if (JSON.stringify(names) === JSON.stringify(expected) || Date.now() > deadline) return names;
    await page.waitForTimeout(250);
  }
}

// Single sign-on, end to end: a real OpenID Connect provider (e2e/support/oidc-provider.mjs,
// the `oidc-provider` package, started by global-setup.mjs) with its own login and consent
// pages; the e2e stack's auth service as its client, the callback through the gateway. The
// provider's `groups` claim (`aict:<workspace name>:admin|user`) makes the memberships, at
// every sign-in.

describe('single sign-on through the company identity provider, end to end', () => {
  let browser: Browser;
  let admin: ApiClient;

  beforeAll(async () => {
    browser = await launchBrowser();
    const sa = superAdmin();
    admin = await signIn(stack().url, sa.username, sa.password);
  });
  afterAll(() => browser?.close());

  async function newWorkspace() {
    const name = uniqueName('SSO Team ');
    const { id } = await admin.ok<{ id: number }>('POST', '/api/workspaces', { body: { name } });
    return { name, id };
  }

  /** An account at the provider, in `groups` (and one group that maps to nothing). */
  async function newProviderAccount(groups: string[]) {
    const sub = uniqueName('sub-');
    const username = uniqueName('sso');
    const account: ProviderAccount = {
      username,
      password: `${username}-at-the-idp`,
      email: `${username}@example.com`,
      groups: [...groups, 'all-staff'],
    };
    await setProviderAccount(sub, account);
    return { sub, account };
  }

  it('when a user signs in at the provider with a group making them admin of a workspace, then they land in it as its admin; once the group is removed at the provider, the next sign-in leaves them without it', async () => {
    const { name: workspace, id } = await newWorkspace();
    // The workspace has an admin of its own: the product never removes a workspace's last
    // admin, not even when the provider drops the group (it keeps them and logs it).
    const local = uniqueName('local');
    await admin.ok('POST', '/api/users', {
      body: {
        username: local,
        email: `${local}@example.com`,
        password: `${local}-pw`,
        workspaceId: id,
        role: 'admin',
      },
    });
    const { sub, account } = await newProviderAccount([workspaceGroup(workspace, 'admin')]);
    // The test closes the set-up checklist itself: it is part of what an admin sees here.
    const { context, page } = await newPage(browser, { setupChecklist: 'keep' });

    const first = await signInThroughSso(page, account);

    expect(first.login).toBe(true); // on the provider's own login page
    await page.getByRole('button', { name: `Workspace: ${workspace}` }).waitFor();
    // As the workspace's admin: its set-up checklist (the workspace has no default prompt),
    // closed with Later before the switcher is opened (it would close the switcher).
    const checklist = page.getByRole('region', { name: `Set up ${workspace}` });
    await checklist.waitFor({ timeout: 30_000 });
    await checklist.getByRole('button', { name: 'Later', exact: true }).click();
    await checklist.waitFor({ state: 'detached' });
    expect(await workspaceNamesOnceLoaded(page, [workspace])).toEqual([workspace]);
    // The Admin section, and its pages open.
    await page.getByRole('link', { name: 'Settings', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Prompts', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/prompts');
    await page.getByRole('heading', { level: 1, name: 'Prompts' }).waitFor();
    expect(await page.getByText('Admin Access Required').count()).toBe(0);

    // The group is removed at the provider; the user signs out and in again through it.
    await setProviderGroups(sub, ['all-staff']);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/auth');
    await signInThroughSso(page, account);

    await page.getByText('You are not in a workspace yet').waitFor();
    // the same account (its own username, not a new one's), in no workspace
    expect(await page.getByTestId('no-workspace-username').innerText()).toBe(account.username);
    await page.getByRole('button', { name: 'Workspace: No workspaces' }).waitFor();
    expect(await page.getByRole('link', { name: 'Settings', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Prompts', exact: true }).count()).toBe(0);
    await page.goto('/prompts');
    await page.getByText('You are not in a workspace yet').waitFor();
    await context.close();
  }, 180_000);

  it('when the group makes them a user of the workspace, then they see it without the Admin section, and its admin pages say so', async () => {
    const { name: workspace } = await newWorkspace();
    const { account } = await newProviderAccount([workspaceGroup(workspace, 'user')]);
    const { context, page } = await newPage(browser);

    await signInThroughSso(page, account);

    await page.getByRole('button', { name: `Workspace: ${workspace}` }).waitFor();
    expect(await workspaceNamesOnceLoaded(page, [workspace])).toEqual([workspace]);
    expect(await page.getByRole('link', { name: 'Settings', exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Prompts', exact: true }).count()).toBe(0);
    await page.goto('/prompts');
    await page.getByText('Admin Access Required').first().waitFor();
    await context.close();
  }, 120_000);
});
