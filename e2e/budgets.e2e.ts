import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createMember, signIn, type ApiClient } from './support/api';
import { launchBrowser, newPage, stack } from './support/browser';
import { signInThroughUi, superAdmin, uniqueName } from './support/session';
import { eventually } from './support/wait';

// Issue 14, end to end: the super admin gives a workspace a small monthly budget; once a
// generation has used 80 % of it the workspace's admin sees the warning banner in the shell,
// linking to /usage (a plain member does not); at 100 % the banner says so and a member's
// next generation is refused, with the reason on screen.

jest.setTimeout(180_000);

/** dall-e-3's built-in price of one 1024×1024 standard image, in micro-USD. */
const IMAGE_COST_MICROS = 40_000;
/** One image is 80 % of it, two are over. */
const BUDGET_MICROS = 50_000;

describe('monthly budget (issue 14), end to end', () => {
  const baseUrl = stack().url;
  let browser: Browser;
  let sa: ApiClient;
  const contexts: BrowserContext[] = [];

  async function signedIn(username: string) {
    const { context, page } = await newPage(browser);
    contexts.push(context);
    await signInThroughUi(page, username, `${username}-pw`);
    await page.getByRole('button', { name: /^Workspace: (?!No workspaces|Loading)/ }).waitFor();
    return page;
  }

  async function generateImage(page: Page, promptId: string, subject: string) {
    await page.goto(`/image-generation?promptId=${encodeURIComponent(promptId)}`);
    await page.getByLabel('subject', { exact: true }).fill(subject);
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.getByRole('img', { name: 'Generated with Poster' }).waitFor({ timeout: 30_000 });
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    sa = await signIn(baseUrl, superAdmin().username, superAdmin().password);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
  });

  it('when a generation uses 80 % of the budget, then the admin sees the warning linking to usage, and at 100 % a member is refused with the reason shown', async () => {
    // --- set-up through the API: a workspace, its admin and a member, two prompts
    const workspace = await sa.ok<{ id: number }>('POST', '/api/workspaces', {
      body: { name: uniqueName('Budget ') },
    });
    const workspaceId = workspace.id;
    await sa.ok('PUT', `/api/workspaces/${workspaceId}/settings/openai_api_key`, {
      body: { value: `sk-e2e-${uniqueName('budget')}` },
      workspaceId,
    });
    const prompt = async (name: string, template: string, contentType: string, model: string) =>
      (
        await sa.ok<{ id: string }>('POST', '/api/prompts', {
          body: {
            name,
            template,
            category: 'Marketing',
            contentType,
            model,
            isPublic: false,
            isDefault: false,
            workspaceId,
          },
          workspaceId,
        })
      ).id;
    const poster = await prompt('Poster', 'A poster of {subject}', 'image', 'dall-e-3');
    const note = await prompt('Note writer', 'Write a note about {topic}', 'text', 'gpt-4o');
    const adminName = uniqueName('budgetadmin');
    const memberName = uniqueName('budgetmember');
    const adminApi = await createMember(sa, baseUrl, adminName, workspaceId, 'admin');
    const memberApi = await createMember(sa, baseUrl, memberName, workspaceId, 'user');
    for (const client of [adminApi, memberApi]) {
      await eventually('the membership reaches the gateway', async () => {
        const res = await client.call('GET', `/api/prompts?workspaceId=${workspaceId}`, {
          workspaceId,
        });
        return res.status === 200;
      });
    }
    // the super admin's small monthly budget
    await sa.ok('PUT', `/api/usage/limits/budget?workspaceId=${workspaceId}`, {
      body: { monthlyBudgetMicros: BUDGET_MICROS },
      workspaceId,
    });

    // --- below 80 %: no banner for the admin
    const admin = await signedIn(adminName);
    const banner = admin.getByText(/This workspace has (used \d+% of|reached) its monthly budget/);
    await admin.getByRole('link', { name: 'Stats' }).waitFor();
    expect(await banner.count()).toBe(0);

    // --- the member's first image: 40 000 of 50 000 = 80 %
    const member = await signedIn(memberName);
    await generateImage(member, poster, uniqueName('first'));

    await admin.reload();
    const warning = admin.getByRole('status').filter({
      hasText: 'This workspace has used 80% of its monthly budget.',
    });
    await warning.waitFor({ timeout: 15_000 });
    // a plain member is not shown the budget
    await member.goto('/');
    await member.getByRole('link', { name: 'Stats' }).waitFor();
    expect(await member.getByText(/its monthly budget/).count()).toBe(0);
    // the banner links to /usage
    await warning.getByRole('link', { name: 'View usage' }).click();
    await admin.waitForURL((url) => url.pathname === '/usage');
    await admin.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    await admin.getByText('This workspace has used 80% of its monthly budget').first().waitFor();
    const meter = admin.getByRole('progressbar', { name: 'Budget used' });
    await meter.waitFor();
    expect(await meter.getAttribute('aria-valuenow')).toBe(
      String((IMAGE_COST_MICROS * 100) / BUDGET_MICROS),
    );

    // --- the second image takes the month over the budget (the call running may overshoot)
    await generateImage(member, poster, uniqueName('second'));
    await admin.goto('/');
    const reached = admin.getByRole('alert').filter({
      hasText:
        'This workspace has reached its monthly budget: generating is refused until next month.',
    });
    await reached.waitFor({ timeout: 15_000 });
    await reached.getByRole('link', { name: 'View usage' }).waitFor();

    // --- the member's next generation is refused, and the screen says why
    await member.goto(`/text-generation?promptId=${encodeURIComponent(note)}`);
    await member.getByLabel('topic', { exact: true }).fill(uniqueName('refused'));
    await member.getByRole('button', { name: 'Generate Text' }).click();
    const notifications = member.getByRole('region', { name: /Notifications/ });
    await notifications
      .getByText('This workspace has reached its monthly budget', { exact: false })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await member.getByText('Content generated successfully').count()).toBe(0);
    expect(await member.getByRole('list', { name: 'Conversation' }).count()).toBe(0);
    // an image too
    await member.goto(`/image-generation?promptId=${encodeURIComponent(poster)}`);
    await member.getByLabel('subject', { exact: true }).fill(uniqueName('third'));
    await member.getByRole('button', { name: 'Generate Image' }).click();
    await notifications
      .getByText('This workspace has reached its monthly budget', { exact: false })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await member.getByRole('img', { name: 'Generated with Poster' }).count()).toBe(0);
  });
});
