import type { Browser, Page } from 'playwright-core';
import { signIn } from './support/api';
import { launchBrowser, newPage, stack } from './support/browser';
import { makePng } from './support/png';
import { chooseWorkspace, signInThroughUi, superAdmin, uniqueName } from './support/session';
import { eventually } from './support/wait';

// Issue 5, end to end: an admin creates a text prompt and an image prompt with a reference
// image, marks one as the default, filters the list, edits and deletes; a plain member of the
// workspace sees a prompt's name and variables but not its template, and gets the access
// texts on the admin pages (SPEC §2 Prompts list, Create prompt, Prompt detail; §6).

// A workspace of this file's own: the files run two at a time, and the prompts, defaults
// and set-up checklist of a shared one would be other files' too.
let WORKSPACE_ID: string;

/** The id at the end of /prompts/{id}. */
function promptIdOf(page: Page): string {
  const match = /^\/prompts\/([^/]+)$/.exec(new URL(page.url()).pathname);
  if (!match || match[1] === 'create') throw new Error(`not on a prompt page: ${page.url()}`);
  return decodeURIComponent(match[1]!);
}

describe('prompts, end to end', () => {
  let browser: Browser;
  const textTemplate = 'Write about {topic} in {language}';
  const textName = uniqueName('Text prompt ');
  const renamed = uniqueName('Renamed prompt ');
  const imageName = uniqueName('Image prompt ');
  // The prompt that stays (the text one, renamed); set by the first test.
  let remainingId: string | undefined;
  let deletedId: string | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
    const sa = await signIn(stack().url, superAdmin().username, superAdmin().password);
    const created = await sa.ok<{ id: number }>('POST', '/api/workspaces', {
      body: { name: uniqueName('Prompts ') },
    });
    WORKSPACE_ID = String(created.id);
  });
  afterAll(() => browser?.close());

  it('when an admin creates a text and an image prompt, uploads a reference image, sets the default, filters, edits and deletes, then the screens show each change', async () => {
    const admin = superAdmin();
    const { context, page } = await newPage(browser);
    await signInThroughUi(page, admin.username, admin.password);
    // Work in this file's workspace, as the person would pick it in the header.
    await chooseWorkspace(page, WORKSPACE_ID);

    // --- The list, from the sidebar (an admin sees the Admin section).
    await page.getByRole('link', { name: 'Prompts', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/prompts');
    await page.getByRole('heading', { level: 1, name: 'Prompts' }).waitFor();

    // --- A text prompt with variables.
    await page.getByRole('link', { name: 'Create Prompt' }).first().click();
    await page.waitForURL((url) => url.pathname === '/prompts/create');
    await page.getByRole('heading', { level: 1, name: 'Create Prompt' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(textName);
    await page.getByLabel('Description', { exact: true }).fill('An article in a chosen language');
    await page.getByLabel('Template', { exact: true }).fill(textTemplate);
    // The variables show while the template is typed.
    const typed = page.getByRole('list', { name: 'Template variables' });
    await typed.getByText('{topic}', { exact: true }).waitFor();
    await typed.getByText('{language}', { exact: true }).waitFor();
    await page.getByLabel('Category', { exact: true }).selectOption('Technical');
    expect(await page.getByLabel('Content type', { exact: true }).inputValue()).toBe('text');
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('gpt-4o');
    await page.getByRole('button', { name: 'Create Prompt' }).click();

    await page.waitForURL((url) => /^\/prompts\/(?!create$)[^/]+$/.test(url.pathname));
    await page.getByText('Prompt created successfully').first().waitFor();
    await page.getByRole('heading', { level: 1, name: textName }).waitFor();
    const textId = promptIdOf(page);
    expect(
      await page.getByRole('tab', { name: 'Prompt Details' }).getAttribute('aria-selected'),
    ).toBe('true');
    await page.getByText(textTemplate, { exact: true }).waitFor(); // an admin sees the template
    await page.getByRole('link', { name: 'Generate Text' }).waitFor();

    // --- An image prompt on gpt-image-1, created as the workspace's default.
    await page.goto('/prompts/create');
    await page.getByRole('heading', { level: 1, name: 'Create Prompt' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(imageName);
    await page.getByLabel('Template', { exact: true }).fill('A watercolour painting of {subject}');
    await page.getByLabel('Category', { exact: true }).selectOption('Creative');
    await page.getByLabel('Content type', { exact: true }).selectOption('image');
    // Switching the type resets the model to the image default.
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('dall-e-3');
    await page.getByLabel('Model', { exact: true }).selectOption('gpt-image-1');
    await page.getByRole('switch', { name: 'Default prompt' }).check();
    await page.getByRole('button', { name: 'Create Prompt' }).click();

    await page.getByRole('heading', { level: 1, name: imageName }).waitFor();
    const imageId = promptIdOf(page);
    expect(imageId).not.toBe(textId);
    await page.getByRole('link', { name: 'Generate Image' }).waitFor();
    const details = page.getByRole('tabpanel', { name: 'Prompt Details' });
    await details.getByText('Default', { exact: true }).waitFor();
    await details.getByText('gpt-image-1', { exact: true }).waitFor();

    // --- A reference image, uploaded in the edit tab.
    await page.getByRole('tab', { name: 'Edit Prompt' }).click();
    await page.getByRole('heading', { name: 'Reference Image' }).waitFor();
    await page.getByText('No reference images yet.').waitFor();
    await page.getByLabel('Reference image file').setInputFiles({
      name: 'reference.png',
      mimeType: 'image/png',
      buffer: makePng(8, 8),
    });
    const uploaded = page.getByRole('img', { name: 'Reference image 1' });
    await uploaded.waitFor();
    await page.getByText(/\(1 of 4\)/).waitFor();
    await page.getByRole('button', { name: 'Remove All' }).waitFor();
    // The picture really loads (through the gateway, under its CSP).
    await uploaded.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
      await uploaded.elementHandle(),
    );
    expect(await uploaded.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(8);
    // The details tab lists it too.
    await page.getByRole('tab', { name: 'Prompt Details' }).click();
    await page.getByRole('heading', { name: 'Reference images' }).waitFor();
    await page.getByRole('img', { name: 'Reference image 1' }).waitFor();

    // --- The list: both cards, the image one marked as the default.
    await page.getByRole('link', { name: 'Back to Prompts' }).click();
    await page.waitForURL((url) => url.pathname === '/prompts');
    const textCard = page.getByRole('article', { name: textName });
    const imageCard = page.getByRole('article', { name: imageName });
    await textCard.waitFor();
    await imageCard.waitFor();
    await imageCard.getByText('Default', { exact: true }).waitFor();
    expect(await textCard.getByText('Default', { exact: true }).count()).toBe(0);
    expect(await textCard.getByText('Created by you').isVisible()).toBe(true);
    expect(await textCard.getByText('Technical', { exact: true }).isVisible()).toBe(true);
    expect(await imageCard.getByText('gpt-image-1', { exact: true }).isVisible()).toBe(true);

    // --- Filters: by type ...
    const typeFilter = page.getByLabel('Type', { exact: true });
    const categoryFilter = page.getByLabel('Category', { exact: true });
    await typeFilter.selectOption('image');
    await page.waitForURL((url) => url.searchParams.get('type') === 'image');
    await textCard.waitFor({ state: 'detached' });
    await imageCard.waitFor();
    await typeFilter.selectOption('text');
    await page.waitForURL((url) => url.searchParams.get('type') === 'text');
    await imageCard.waitFor({ state: 'detached' });
    await textCard.waitFor();
    await typeFilter.selectOption('all');
    await imageCard.waitFor();
    await textCard.waitFor();
    // ... and by category.
    await categoryFilter.selectOption('Creative');
    await page.waitForURL((url) => url.searchParams.get('category') === 'Creative');
    await textCard.waitFor({ state: 'detached' });
    await imageCard.waitFor();
    await categoryFilter.selectOption('Technical');
    await imageCard.waitFor({ state: 'detached' });
    await textCard.waitFor();
    // A filter nothing matches, and Clear Filters.
    await categoryFilter.selectOption('Business');
    await page.getByText('No prompts match your selected filters').waitFor();
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.waitForURL((url) => !url.searchParams.has('category'));
    await textCard.waitFor();
    await imageCard.waitFor();
    expect(await categoryFilter.inputValue()).toBe('all');
    expect(await typeFilter.inputValue()).toBe('all');

    // --- Edit the text prompt: a new name, and it becomes the default.
    await textCard.getByRole('link', { name: `Edit ${textName}` }).click();
    await page.waitForURL((url) => url.pathname === `/prompts/${textId}`);
    await page.getByRole('heading', { level: 1, name: textName }).waitFor();
    await page.getByRole('tab', { name: 'Edit Prompt' }).click();
    const nameField = page.getByLabel('Name', { exact: true });
    expect(await nameField.inputValue()).toBe(textName);
    expect(await page.getByLabel('Template', { exact: true }).inputValue()).toBe(textTemplate);
    await nameField.fill(renamed);
    await page.getByRole('switch', { name: 'Default prompt' }).check();
    await page.getByRole('button', { name: 'Save Changes' }).click();

    await page.getByText('Prompt updated successfully').first().waitFor();
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    // The view is back on the details tab, which shows the change.
    await page.getByRole('button', { name: 'Save Changes' }).waitFor({ state: 'detached' });
    expect(
      await page.getByRole('tab', { name: 'Prompt Details' }).getAttribute('aria-selected'),
    ).toBe('true');
    await details.getByText(textTemplate, { exact: true }).waitFor();
    await details.getByText('Default', { exact: true }).waitFor();

    // --- The list: one default only, now the renamed prompt.
    await page.getByRole('link', { name: 'Back to Prompts' }).click();
    await page.waitForURL((url) => url.pathname === '/prompts');
    const renamedCard = page.getByRole('article', { name: renamed });
    await renamedCard.getByText('Default', { exact: true }).waitFor();
    await imageCard.getByText('Default', { exact: true }).waitFor({ state: 'detached' });
    expect(await textCard.count()).toBe(0); // the old name is gone

    // --- Delete the image prompt, with the confirmation.
    await imageCard.getByRole('button', { name: `Delete ${imageName}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete prompt?' });
    await confirm.waitFor();
    expect(
      await confirm
        .getByText('This action cannot be undone. This will permanently delete the prompt.')
        .isVisible(),
    ).toBe(true);
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText('Prompt deleted').first().waitFor();
    await imageCard.waitFor({ state: 'detached' });
    await renamedCard.waitFor();
    // Still gone after a reload (the server deleted it), and its page says so.
    await page.reload();
    await renamedCard.waitFor();
    expect(await imageCard.count()).toBe(0);
    await page.goto(`/prompts/${imageId}`);
    await page.getByText('Prompt Not Found').first().waitFor();

    remainingId = textId;
    deletedId = imageId;
    await context.close();
  }, 120_000);

  it('when a plain member of the workspace opens the prompts, then they see the name and variables but not the template, and the access texts on the admin pages', async () => {
    expect(remainingId).toBeDefined(); // set by the test above
    expect(deletedId).toBeDefined();
    const id = remainingId!;
    const admin = superAdmin();
    const member = uniqueName('plain');
    const password = 'plain-pass-1';

    // Set-up (not the subject): the super administrator creates the user and adds them to
    // this file's workspace with the role 'user'.
    const setup = await newPage(browser);
    await signInThroughUi(setup.page, admin.username, admin.password);
    const created = await setup.page.request.post('/api/users', {
      data: { username: member, email: `${member}@example.com`, password },
    });
    expect(created.status()).toBe(201);
    const { id: userId } = (await created.json()) as { id: string };
    const joined = await setup.page.request.post(`/api/workspaces/${WORKSPACE_ID}/users`, {
      data: { userId, role: 'user' },
    });
    expect(joined.status()).toBe(201);
    await setup.context.close();

    const { context, page } = await newPage(browser);
    await signInThroughUi(page, member, password);
    // The member's only workspace is selected; no Admin section in the sidebar.
    await page.getByRole('button', { name: /^Workspace: (?!No workspaces|Loading)/ }).waitFor();
    await page.getByRole('link', { name: 'Stats' }).waitFor();
    expect(await page.getByRole('link', { name: 'Prompts', exact: true }).count()).toBe(0);
    // The gateway learns of new memberships through events: wait until it lets them in.
    await eventually('the membership reaches the gateway', async () => {
      const res = await page.request.get(`/api/prompts/${id}?workspaceId=${WORKSPACE_ID}`);
      return res.status() === 200;
    });

    // --- The prompt's page: name and variables, no template.
    const answer = page.waitForResponse(
      (res) =>
        res.request().method() === 'GET' &&
        new URL(res.url()).pathname === `/api/prompts/${id}` &&
        res.status() === 200,
    );
    await page.goto(`/prompts/${id}`);
    const body = (await (await answer).json()) as Record<string, unknown>;
    await page.getByRole('heading', { level: 1, name: renamed }).waitFor();
    const variables = page.getByRole('list', { name: 'Prompt variables' });
    await variables.getByText('{topic}', { exact: true }).waitFor();
    await variables.getByText('{language}', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Generate Text' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Template', exact: true }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Edit Prompt' }).count()).toBe(0);
    expect(await page.content()).not.toContain('Write about');
    expect(body.template).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('Write about');

    // --- The list is for admins only.
    await page.goto('/prompts');
    await page.getByText('Admin Access Required').first().waitFor();
    await page.getByText('You need administrator privileges to access this page.').waitFor();
    expect(await page.getByRole('article', { name: renamed }).count()).toBe(0);

    // --- /prompts/create sends anyone but an admin to / (SPEC §2 route table).
    await page.goto('/prompts/create');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.getByRole('heading', { level: 1, name: 'Create Prompt' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create Prompt' }).count()).toBe(0);

    // --- A deleted prompt is not found for them either.
    await page.goto(`/prompts/${deletedId}`);
    await page.getByText('Prompt Not Found').first().waitFor();
    await page.getByRole('link', { name: 'Go Home' }).waitFor();
    await context.close();
  }, 90_000);
});
