import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser';
import { makePng } from './support/png';
import { chooseWorkspace, signInThroughUi, superAdmin, uniqueName } from './support/session';

// Issue 7, end to end (the generation remote): in a workspace of its own (provider key set,
// the provider being the simulator), an admin generates text from a template with variables
// and replies; generates an image with each image model (gpt-image-1 with a reference image)
// and downloads both; the stats page's counts and recent items follow (SPEC §2, §4, §5).

jest.setTimeout(240_000);

interface Created {
  id: string;
}

async function prepareWorkspace(page: Page) {
  const api = page.request;
  const created = await api.post('/api/workspaces', { data: { name: uniqueName('Gen ') } });
  if (created.status() >= 300) {
    throw new Error(`POST /api/workspaces: ${created.status()} ${await created.text()}`);
  }
  const workspace = (await created.json()) as { id: number };
  const headers = { 'x-workspace-id': String(workspace.id) };
  const key = await api.put(`/api/workspaces/${workspace.id}/settings/openai_api_key`, {
    data: { value: 'sk-e2e-generation-key' },
    headers,
  });
  expect(key.status()).toBeLessThan(300);
  const prompt = async (name: string, template: string, contentType: string, model: string) => {
    const res = await api.post('/api/prompts', {
      data: {
        name,
        template,
        category: 'Marketing',
        contentType,
        model,
        isPublic: false,
        isDefault: false,
        workspaceId: workspace.id,
      },
      headers,
    });
    expect(res.status()).toBeLessThan(300);
    return ((await res.json()) as Created).id;
  };
  return {
    workspaceId: workspace.id,
    slogan: await prompt(
      'Slogan writer',
      'Write a slogan about {product} in {language}.',
      'text',
      'gpt-4o',
    ),
    poster: await prompt('Poster', 'A poster of {subject}', 'image', 'dall-e-3'),
    photo: await prompt(
      'Product photo',
      'A product photo of {subject} {file}',
      'image',
      'gpt-image-1',
    ),
  };
}

async function counts(page: Page) {
  await page.goto('/stats');
  const read = async (label: string) => {
    const card = page.getByLabel(new RegExp(`^${label}: \\d+$`));
    await card.waitFor({ timeout: 15_000 });
    return Number((await card.getAttribute('aria-label'))!.split(': ')[1]);
  };
  return {
    prompts: await read('Total Prompts'),
    texts: await read('Text Content'),
    images: await read('Images Generated'),
  };
}

/** Waits for `target`; a failure toast instead fails with its text. */
async function waitOrToast(page: Page, target: ReturnType<Page['getByRole']>) {
  const failure = page.getByText(/^Failed to generate/);
  await target.or(failure).first().waitFor({ timeout: 30_000 });
  if (await failure.count()) {
    const region = page.getByRole('region', { name: /Notifications/ });
    throw new Error(`Generation failed: ${await region.innerText()}`);
  }
}

describe('generation pages, end to end', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('when an admin generates text and images, then answers, downloads and stats follow', async () => {
    const admin = superAdmin();
    const { context, page } = await newPage(browser);
    await signInThroughUi(page, admin.username, admin.password);
    const ids = await prepareWorkspace(page);
    await page.reload();
    await chooseWorkspace(page, ids.workspaceId);

    const before = await counts(page);
    expect(before).toEqual({ prompts: 3, texts: 0, images: 0 });

    // --- text from a template with variables, then a reply
    const product = uniqueName('sneaker');
    await page.goto(`/text-generation?promptId=${ids.slogan}`);
    await page.getByLabel('product').fill(product);
    await page.getByLabel('Language', { exact: true }).selectOption('nl');
    await page.getByRole('button', { name: 'Generate Text' }).click();
    await page.getByText('Content generated successfully').waitFor({ timeout: 30_000 });
    const thread = page.getByRole('list', { name: 'Conversation' });
    await thread.getByText(product, { exact: false }).first().waitFor();

    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.fill('Make it shorter');
    await reply.press('Enter');
    await page.getByText('Reply generated successfully').waitFor({ timeout: 30_000 });
    await thread.getByText('Make it shorter', { exact: true }).waitFor();
    expect(await thread.getByRole('listitem', { name: 'Assistant' }).count()).toBe(2);

    // --- an image with dall-e-3: the name follows the real type (the simulator's is a PNG)
    await page.goto(`/image-generation?promptId=${ids.poster}`);
    await page.getByLabel('subject').fill('a red bicycle');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    const poster = page.getByRole('img', { name: 'Generated with Poster' });
    await waitOrToast(page, poster);
    const dalle = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Image' }).click();
    expect((await dalle).suggestedFilename()).toMatch(/^generated-image-\d+\.png$/);

    // --- gpt-image-1 with a reference image, marked GPT-Image, downloaded as .png
    await page.goto(`/image-generation?promptId=${ids.photo}`);
    await page.getByLabel('subject').fill('a blue mug');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.getByText('Missing file').waitFor();
    await page
      .getByLabel(/Reference image/)
      .setInputFiles({ name: 'mug.png', mimeType: 'image/png', buffer: makePng(16, 16) });
    await page.getByText('mug.png').waitFor();
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page
      .getByRole('img', { name: 'Generated with Product photo' })
      .waitFor({ timeout: 30_000 });
    await page.getByText('GPT-Image', { exact: true }).waitFor();
    const png = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Image' }).click();
    expect((await png).suggestedFilename()).toMatch(/^generated-image-\d+\.png$/);

    // --- the stats moved, and the recent items show the new content
    const after = await counts(page);
    expect(after).toEqual({ prompts: 3, texts: 2, images: 2 });
    await page
      .getByRole('list', { name: 'Recent text content' })
      .getByRole('listitem')
      .nth(1)
      .waitFor();
    expect(
      await page.getByRole('list', { name: 'Recent images' }).getByRole('listitem').count(),
    ).toBe(2);

    // --- the image history opens an image in the dialog
    await page.getByRole('link', { name: 'View All Images' }).click();
    await page.waitForURL((url) => url.pathname === '/history');
    await page.getByText('2 item(s)').waitFor();
    await page.getByRole('list', { name: 'Images' }).getByRole('button').first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Download Image' }).waitFor();

    await context.close();
  });
});
