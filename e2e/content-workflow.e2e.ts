import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { allContents, createMember, signIn, type ApiClient } from './support/api';
import { launchBrowser, newPage, stack } from './support/browser';
import { signInThroughUi, superAdmin, uniqueName } from './support/session';
import { unzip } from './support/zip';
import { eventually } from './support/wait';

// Issue 18, end to end: the review of a generated text (member submits, a workspace admin
// requests changes with a comment, then approves; badges and the history filter follow),
// restoring a prompt version (and what the provider then receives), "Run again" from the
// gallery, a text thread exported as Markdown, JSON and Word, the brand voice (written by an
// admin, previewed on the prompt page, sent to the provider, flagged in the history), the
// workspace export as a zip, and a template's results per version and per user.

jest.setTimeout(180_000);

interface People {
  workspaceId: number;
  apiKey: string;
  admin: { username: string; password: string };
  member: { username: string; password: string };
  /** The same two people, signed in through the API (set-up steps only). */
  adminApi: ApiClient;
  memberApi: ApiClient;
  notePrompt: string;
  versionedPrompt: string;
  posterPrompt: string;
}

/** Set-up: a private prompt of the workspace (through the API), its id. */
async function createPrompt(
  sa: ApiClient,
  workspaceId: number,
  fields: { name: string; template: string; contentType: string; model: string },
): Promise<string> {
  const created = await sa.ok<{ id: string }>('POST', '/api/prompts', {
    body: { ...fields, category: 'Marketing', isPublic: false, isDefault: false, workspaceId },
    workspaceId,
  });
  return created.id;
}

/**
 * Set-up, not the subject (through the API, as the super admin): a workspace whose provider
 * key is its own (the simulator's recorded requests are filtered by it), a workspace admin
 * and a plain member, two text prompts and an image prompt.
 */
async function prepare(sa: ApiClient, baseUrl: string): Promise<People> {
  const workspace = await sa.ok<{ id: number }>('POST', '/api/workspaces', {
    body: { name: uniqueName('Workflow ') },
  });
  const workspaceId = workspace.id;
  const apiKey = `sk-e2e-${uniqueName('workflow')}`;
  await sa.ok('PUT', `/api/workspaces/${workspaceId}/settings/openai_api_key`, {
    body: { value: apiKey },
    workspaceId,
  });
  const prompt = (name: string, template: string, contentType: string, model: string) =>
    createPrompt(sa, workspaceId, { name, template, contentType, model });
  const adminName = uniqueName('wsadmin');
  const memberName = uniqueName('member');
  const admin = await createMember(sa, baseUrl, adminName, workspaceId, 'admin');
  const member = await createMember(sa, baseUrl, memberName, workspaceId, 'user');
  const people: People = {
    workspaceId,
    apiKey,
    admin: { username: adminName, password: `${adminName}-pw` },
    member: { username: memberName, password: `${memberName}-pw` },
    adminApi: admin,
    memberApi: member,
    notePrompt: await prompt('Note writer', 'Write a short note about {topic}', 'text', 'gpt-4o'),
    versionedPrompt: await prompt(
      'Versioned tagline',
      'Original wording: a tagline for {product}',
      'text',
      'gpt-4o',
    ),
    posterPrompt: await prompt(
      'Poster',
      'A poster of {subject} in {style} style',
      'image',
      'dall-e-3',
    ),
  };
  // The gateway learns of new memberships through events: wait until it lets both in.
  for (const client of [admin, member]) {
    await eventually('the membership reaches the gateway', async () => {
      const res = await client.call('GET', `/api/prompts?workspaceId=${workspaceId}`, {
        workspaceId,
      });
      return res.status === 200;
    });
  }
  return people;
}

/** The provider requests the simulator recorded with this key (oldest first). */
async function providerRequests(apiKey: string) {
  const res = await fetch(
    `${stack().simulatorUrl}/__sim/requests?apiKey=${encodeURIComponent(apiKey)}`,
  );
  if (!res.ok) throw new Error(`simulator requests: ${res.status}`);
  const body = (await res.json()) as {
    requests: Array<{
      path: string;
      chat?: { lastUserText: string; messages: Array<{ role: string; text: string }> };
    }>;
  };
  return body.requests;
}

/** Generates a text on /text-generation with one variable filled, as a person would. */
async function generateText(page: Page, promptId: string, variable: string, value: string) {
  await page.goto(`/text-generation?promptId=${encodeURIComponent(promptId)}`);
  await page.getByLabel(variable, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Generate Text' }).click();
  await page.getByText('Content generated successfully').first().waitFor({ timeout: 30_000 });
  await page
    .getByRole('list', { name: 'Conversation' })
    .getByText(value, { exact: false })
    .first()
    .waitFor();
}

/** The history row (one per thread) whose text holds `tag`. */
function historyRow(page: Page, tag: string): Locator {
  return page.getByRole('list', { name: 'Texts' }).getByRole('listitem').filter({ hasText: tag });
}

async function openTextHistory(page: Page) {
  await page.goto('/history?type=text');
  await page.getByRole('list', { name: 'Texts' }).waitFor({ timeout: 15_000 });
}

/** The review badge of a row shows `state` (and no other state). */
async function expectState(row: Locator, state: string) {
  await row.getByTestId('review-state').filter({ hasText: state }).waitFor();
  expect(await row.getByTestId('review-state').innerText()).toBe(state);
}

/**
 * The rows of a table as a user reads them (read at once): each body row's cells, its header
 * cell too, by their column's heading, only the columns asked for, white space as one space.
 */
function tableRows(table: Locator, columns: string[]): Promise<Array<Record<string, string>>> {
  return table.evaluate((element, wanted) => {
    const text = (cell: Element) =>
      ((cell as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim();
    const headings = [...element.querySelectorAll('thead th')].map(text);
    return [...element.querySelectorAll('tbody tr')].map((row) => {
      const cells = [...row.querySelectorAll('th, td')].map(text);
      return Object.fromEntries(
        wanted.map((column) => [column, cells[headings.indexOf(column)] ?? '']),
      );
    });
  }, columns);
}

type ProviderRequest = Awaited<ReturnType<typeof providerRequests>>[number];

/**
 * Generates a text (generateText) until the provider receives what `changed` looks for: a
 * change of a prompt or of the workspace's settings reaches the generation service by an
 * event, and a generation before it arrives still works as before. Returns the generations
 * made before (usually none) and the request that had the change.
 */
async function generateOnceChanged(
  page: Page,
  apiKey: string,
  input: { promptId: string; variable: string; value: () => string },
  what: string,
  changed: (request: ProviderRequest) => boolean,
): Promise<{ earlier: number; request: ProviderRequest }> {
  let earlier = 0;
  let request: ProviderRequest | undefined;
  await eventually(
    what,
    async () => {
      const seen = (await providerRequests(apiKey)).length;
      await generateText(page, input.promptId, input.variable, input.value());
      request = (await providerRequests(apiKey)).slice(seen).find(changed);
      if (!request) earlier += 1;
      return request !== undefined;
    },
    60_000,
  );
  return { earlier, request: request! };
}

async function savedText(download: Download): Promise<Buffer> {
  const path = await download.path();
  if (!path) throw new Error(`download ${download.suggestedFilename()} failed`);
  return readFile(path);
}

describe('content workflow (issue 18), end to end', () => {
  const baseUrl = stack().url;
  let browser: Browser;
  let sa: ApiClient;
  let people: People;
  const contexts: BrowserContext[] = [];

  async function signedIn(who: { username: string; password: string }) {
    const { context, page } = await newPage(browser);
    contexts.push(context);
    await signInThroughUi(page, who.username, who.password);
    await page.getByRole('button', { name: /^Workspace: (?!No workspaces|Loading)/ }).waitFor();
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    sa = await signIn(baseUrl, superAdmin().username, superAdmin().password);
    people = await prepare(sa, baseUrl);
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(() => browser?.close());

  it('when a member submits a text, an admin requests changes with a comment and later approves, then both see each state, the comment, and the filter follows', async () => {
    const tag = uniqueName('reviewed');
    const draftTag = uniqueName('stays');
    const comment = `Please mention the price of ${uniqueName('item')}`;
    const member = await signedIn(people.member);
    await generateText(member, people.notePrompt, 'topic', tag);
    await generateText(member, people.notePrompt, 'topic', draftTag);

    // --- the member's history: both texts are drafts; the member submits one
    await openTextHistory(member);
    const mine = historyRow(member, tag);
    await expectState(mine, 'Draft');
    await expectState(historyRow(member, draftTag), 'Draft');
    expect(await mine.getByRole('button', { name: /^Approve / }).count()).toBe(0);
    await mine.getByRole('button', { name: /^Submit ".*" for review$/ }).click();
    await member.getByText('Submitted for review').first().waitFor();
    await expectState(mine, 'In review');
    // an author may not decide on their own text
    expect(await mine.getByRole('button', { name: /^Approve / }).count()).toBe(0);
    expect(await mine.getByRole('button', { name: /^Request changes / }).count()).toBe(0);

    // --- the workspace admin sends it back with a comment
    const admin = await signedIn(people.admin);
    await openTextHistory(admin);
    const theirs = historyRow(admin, tag);
    await expectState(theirs, 'In review');
    expect(
      await historyRow(admin, draftTag)
        .getByRole('button', { name: /^Approve / })
        .count(),
    ).toBe(0); // a draft is not up for a decision
    await theirs.getByRole('button', { name: /^Request changes to / }).click();
    const dialog = admin.getByRole('dialog', { name: 'Request changes' });
    await dialog.waitFor();
    await dialog.getByLabel('Comment', { exact: true }).fill(comment);
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectState(theirs, 'Changes requested');

    // --- the member sees the state and the comment, changes nothing here and submits again
    await openTextHistory(member);
    await expectState(mine, 'Changes requested');
    await mine.getByText(comment, { exact: false }).waitFor();
    expect(await mine.getByText(comment, { exact: false }).isVisible()).toBe(true);
    await mine.getByRole('button', { name: /^Submit ".*" for review$/ }).click();
    await expectState(mine, 'In review');

    // --- the admin approves
    await openTextHistory(admin);
    await expectState(theirs, 'In review');
    await theirs.getByRole('button', { name: /^Approve / }).click();
    await expectState(theirs, 'Approved');
    expect(await theirs.getByRole('button', { name: /^(Approve|Request changes) / }).count()).toBe(
      0,
    );

    // --- the member's history: approved, and the review filter shows each state's texts
    await openTextHistory(member);
    await expectState(mine, 'Approved');
    const filter = member.getByLabel('Review state', { exact: true });
    await filter.selectOption({ label: 'Approved' });
    await mine.waitFor();
    await historyRow(member, draftTag).waitFor({ state: 'detached' });
    await filter.selectOption({ label: 'Draft' });
    await historyRow(member, draftTag).waitFor();
    await mine.waitFor({ state: 'detached' });
    await filter.selectOption({ label: 'In review' });
    await mine.waitFor({ state: 'detached' });
    await historyRow(member, draftTag).waitFor({ state: 'detached' });
    await filter.selectOption({ label: 'All states' });
    await mine.waitFor();
    await historyRow(member, draftTag).waitFor();
  });

  it('when an admin edits a template twice and restores version 1, then the form shows it and the next generation sends it to the provider', async () => {
    const v1 = 'Original wording: a tagline for {product}';
    const v2 = 'Second wording: a slogan for {product}';
    const v3 = 'Third wording: a motto for {product}';
    const page = await signedIn(people.admin);
    const template = page.getByLabel('Template', { exact: true });

    await page.goto(`/prompts/${people.versionedPrompt}`);
    await page.getByRole('heading', { level: 1, name: 'Versioned tagline' }).waitFor();
    for (const next of [v2, v3]) {
      await page.getByRole('tab', { name: 'Edit Prompt' }).click();
      await template.fill(next);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Prompt updated successfully').first().waitFor();
      await page
        .getByRole('tabpanel', { name: 'Prompt Details' })
        .getByText(next, { exact: true })
        .waitFor();
    }

    // --- Versions: three, the newest current; version 1 against the current one
    await page.getByRole('tab', { name: 'Edit Prompt' }).click();
    const versions = page.getByRole('list', { name: 'Prompt versions' });
    await versions.getByRole('listitem').nth(2).waitFor({ timeout: 15_000 });
    const labels = await versions.getByRole('button').allInnerTexts();
    expect(labels).toHaveLength(3);
    expect(labels[0]).toMatch(/^Version 3\s*Current/);
    expect(labels[2]).toMatch(/^Version 1/);
    await versions.getByRole('button', { name: /^Version 1\b/ }).click();
    const comparison = page.getByRole('region', {
      name: 'Version 1 compared with the current version',
    });
    await comparison.waitFor();
    const diff = comparison.getByTestId('version-diff');
    await diff.getByText(`only in version 1: ${v1}`, { exact: false }).waitFor();
    await diff.getByText(`only in the current version: ${v3}`, { exact: false }).waitFor();
    expect(await diff.innerText()).not.toContain(v2);

    // --- restore it, with the confirmation: the form shows the old template
    await comparison.getByRole('button', { name: 'Restore version 1' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Restore version 1?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Restore version 1' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByText('Version 1 restored').first().waitFor();
    expect(await template.inputValue()).toBe(v1);
    // a fourth version, now current, the old ones kept
    await versions.getByRole('listitem').nth(3).waitFor();
    expect((await versions.getByRole('button').first().innerText()).startsWith('Version 4')).toBe(
      true,
    );
    await page.reload();
    await page.getByRole('tab', { name: 'Edit Prompt' }).click();
    expect(await template.inputValue()).toBe(v1);

    // --- a new generation with the prompt sends the restored template
    const product = uniqueName('kettle');
    const before = (await providerRequests(people.apiKey)).length;
    await generateText(page, people.versionedPrompt, 'product', product);
    const sent = (await providerRequests(people.apiKey)).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.chat?.lastUserText).toContain(`Original wording: a tagline for ${product}`);
    expect(sent[0]!.chat?.lastUserText).not.toMatch(/Second wording|Third wording/);
    // and the answer on screen echoes it
    await page
      .getByRole('list', { name: 'Conversation' })
      .getByText(`Echo: Original wording: a tagline for ${product}`, { exact: false })
      .first()
      .waitFor();
  });

  it('when an image is opened in the gallery and run again, then image generation opens with its prompt and inputs filled in', async () => {
    const subject = uniqueName('lighthouse');
    const page = await signedIn(people.member);

    await page.goto(`/image-generation?promptId=${people.posterPrompt}`);
    await page.getByLabel('subject', { exact: true }).fill(subject);
    await page.getByLabel('style', { exact: true }).fill('art deco');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.getByRole('img', { name: 'Generated with Poster' }).waitFor({ timeout: 30_000 });

    // --- the gallery, from the sidebar
    await page.getByRole('link', { name: 'Gallery', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/gallery');
    const images = page.getByRole('list', { name: 'Images' });
    await images.getByRole('listitem').first().waitFor({ timeout: 15_000 });
    await images
      .getByRole('button', { name: /^Open / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog
      .getByRole('listitem')
      .filter({ hasText: `subject: ${subject}` })
      .waitFor();
    await dialog.getByRole('listitem').filter({ hasText: 'style: art deco' }).waitFor();

    await dialog.getByRole('link', { name: 'Run again' }).click();
    await page.waitForURL((url) => url.pathname === '/image-generation');
    expect(new URL(page.url()).searchParams.get('promptId')).toBe(people.posterPrompt);
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const subjectField = page.getByLabel('subject', { exact: true });
    await eventually(
      'the inputs are filled in',
      async () => (await subjectField.inputValue()) === subject,
    );
    expect(await page.getByLabel('style', { exact: true }).inputValue()).toBe('art deco');

    // running it makes a second image of the same inputs
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.getByText('Content generated successfully').first().waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Gallery', exact: true }).click();
    await images.getByRole('listitem').nth(1).waitFor({ timeout: 15_000 });
  });

  it('when a text thread is exported as Markdown, JSON and Word from the history, then each file opens and holds the thread', async () => {
    const tag = uniqueName('exported');
    const page = await signedIn(people.member);
    await generateText(page, people.notePrompt, 'topic', tag);
    const reply = page.getByRole('textbox', { name: 'Reply' });
    await reply.fill(`And now shorter, ${tag}`);
    await reply.press('Enter');
    await page.getByText('Reply generated successfully').first().waitFor({ timeout: 30_000 });

    await openTextHistory(page);
    const row = historyRow(page, tag);
    await row.waitFor();
    const exportAs = async (format: string) => {
      const download = page.waitForEvent('download');
      await row.getByRole('button', { name: new RegExp(`^Export ".*" as ${format}$`) }).click();
      return download;
    };

    const md = await exportAs('Markdown');
    expect(md.suggestedFilename()).toMatch(/\.md$/);
    const markdown = (await savedText(md)).toString('utf8');
    expect(markdown).toContain(`Write a short note about ${tag}`);
    expect(markdown).toContain(`And now shorter, ${tag}`);

    const json = await exportAs('JSON');
    expect(json.suggestedFilename()).toMatch(/\.json$/);
    const doc = JSON.parse((await savedText(json)).toString('utf8')) as {
      messages: Array<{ role: string; content: string }>;
    };
    expect(doc.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(doc.messages[1]!.content).toContain(`Echo: Write a short note about ${tag}`);
    expect(doc.messages[2]!.content).toBe(`And now shorter, ${tag}`);

    const word = await exportAs('Word');
    expect(word.suggestedFilename()).toMatch(/\.docx$/);
    const entries = unzip(await savedText(word));
    const documentXml = entries.get('word/document.xml')?.toString('utf8');
    expect(documentXml).toBeDefined();
    expect(documentXml).toContain(`Write a short note about ${tag}`);
    expect(documentXml).toContain(`And now shorter, ${tag}`);
  });

  it('when a workspace admin writes the brand voice, then the prompt page previews it, the provider receives it as the system instruction and a text with a word to avoid is flagged in the history', async () => {
    // A workspace of its own: the brand voice applies to all texts of its workspace.
    const voiced = await prepare(sa, baseUrl);
    const tone = 'Warm and direct, no jargon';
    const example = 'Our kettles boil fast.\nThey last for years.';
    const instruction = [
      'Write in the brand voice of this workspace.',
      `Tone: ${tone}`,
      'Words to use: bright, simple',
      'Never use these words: synergy, cheap',
      `Example of the voice:\n${example}`,
    ].join('\n');

    // --- before: a member's text goes to the provider without a system instruction
    const member = await signedIn(voiced.member);
    const before = uniqueName('before');
    await generateText(member, voiced.notePrompt, 'topic', `${before}, a cheap deal`);
    const [unvoiced] = await providerRequests(voiced.apiKey);
    expect(unvoiced?.chat?.messages.map((m) => m.role)).toEqual(['user']);

    // --- the workspace admin writes the brand voice on the settings page
    const admin = await signedIn(voiced.admin);
    await admin.getByRole('link', { name: 'Settings', exact: true }).click();
    await admin.waitForURL((url) => url.pathname === '/settings');
    const form = admin.getByRole('form', { name: 'Brand voice' });
    await form.waitFor({ timeout: 15_000 });
    await form.getByLabel('Tone', { exact: true }).fill(tone);
    await form.getByLabel('Words to avoid', { exact: true }).fill('synergy\ncheap');
    await form.getByLabel('Words to use', { exact: true }).fill('bright, simple');
    await form.getByLabel('Example', { exact: true }).fill(example);
    await form.getByRole('button', { name: 'Save brand voice' }).click();
    await admin.getByText('Brand voice saved').first().waitFor();
    // kept: the form shows it again after a reload, the words one a line
    await admin.reload();
    const useWords = form.getByLabel('Words to use', { exact: true });
    await useWords.waitFor({ timeout: 15_000 });
    expect(await useWords.inputValue()).toBe('bright\nsimple');
    expect(await form.getByLabel('Tone', { exact: true }).inputValue()).toBe(tone);

    // --- the prompt page previews the system instruction
    await admin.goto(`/prompts/${voiced.notePrompt}`);
    await admin.getByRole('heading', { level: 1, name: 'Note writer' }).waitFor();
    const preview = admin
      .getByRole('region', { name: 'System instruction' })
      .getByTestId('system-instruction');
    await preview.waitFor({ timeout: 15_000 });
    expect(await preview.innerText()).toBe(instruction);

    // --- the member's next text sends it to the provider, first, as the system message (the
    // generation service hears of the change by an event)
    const after = uniqueName('after');
    const { request } = await generateOnceChanged(
      member,
      voiced.apiKey,
      { promptId: voiced.notePrompt, variable: 'topic', value: () => `${after}, a cheap deal` },
      'the brand voice reaches the generation service',
      (sent) => sent.chat?.messages[0]?.role === 'system',
    );
    expect(request.chat?.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(request.chat?.messages[0]!.text).toBe(instruction);
    expect(request.chat?.lastUserText).toBe(`Write a short note about ${after}, a cheap deal`);

    // --- the history flags the text that uses a word to avoid; the one written before the
    // brand voice, with the same word, is not. (The simulator's answer echoes the prompt and
    // also repeats the system instruction, so it names every word to avoid: the badge names
    // "cheap" at least.)
    await openTextHistory(member);
    const badge = historyRow(member, after).getByTestId('voice-flags');
    await badge.waitFor();
    expect(await badge.innerText()).toBe('Brand voice');
    expect(await badge.getAttribute('aria-label')).toMatch(
      /^Contains words to avoid: (.+, )?cheap(, .+)?$/,
    );
    await historyRow(member, before).waitFor();
    expect(await historyRow(member, before).getByTestId('voice-flags').count()).toBe(0);
  });

  it('when an admin exports the workspace from the history, then the progress shows and the zip holds its texts as JSON and Markdown and its images with their details, and nothing of another workspace', async () => {
    const topic = uniqueName('exportnote');
    const subject = uniqueName('harbour');
    const elsewhere = uniqueName('elsewhere');
    // Set-up: a text in another workspace, stored before the export starts.
    const other = await prepare(sa, baseUrl);
    await other.memberApi.ok('POST', '/api/generate', {
      body: {
        promptId: other.notePrompt,
        inputs: { topic: elsewhere },
        workspaceId: other.workspaceId,
      },
      workspaceId: other.workspaceId,
    });
    await eventually('the other workspace has its text', async () =>
      (await allContents(other.memberApi, other.workspaceId)).some((item) =>
        item.content.includes(elsewhere),
      ),
    );

    // --- a member makes a text and an image
    const member = await signedIn(people.member);
    await generateText(member, people.notePrompt, 'topic', topic);
    await member.goto(`/image-generation?promptId=${people.posterPrompt}`);
    await member.getByLabel('subject', { exact: true }).fill(subject);
    await member.getByLabel('style', { exact: true }).fill('watercolour');
    await member.getByRole('button', { name: 'Generate Image' }).click();
    await member.getByRole('img', { name: 'Generated with Poster' }).waitFor({ timeout: 30_000 });

    // --- the admin exports the workspace from the history; the answer is held back a moment
    // (a slow network) so the export in progress can be seen
    const admin = await signedIn(people.admin);
    await openTextHistory(admin);
    await historyRow(admin, topic).waitFor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await admin.route(/\/api\/workspaces\/\d+\/export$/, async (route) => {
      await held;
      await route.continue();
    });
    const download = admin.waitForEvent('download', { timeout: 60_000 });
    await admin.getByRole('button', { name: 'Export workspace' }).click();
    const busy = admin.getByRole('button', { name: 'Exporting…' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await admin
      .getByRole('status')
      .filter({ hasText: /^0 of \? items · / })
      .waitFor();
    release();
    const zip = await download;
    await admin.getByText('Workspace exported').first().waitFor();
    await admin.getByRole('button', { name: 'Export workspace' }).waitFor();
    expect(
      await admin
        .getByRole('status')
        .filter({ hasText: / items · / })
        .count(),
    ).toBe(0);

    // --- the zip opens: a manifest, each text as JSON and Markdown, each image with its JSON
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    const entries = unzip(await savedText(zip));
    const names = [...entries.keys()];
    const jsonOf = <T>(name: string) => JSON.parse(entries.get(name)!.toString('utf8')) as T;
    const manifest = jsonOf<{ workspaceId: number; texts: number; images: number }>(
      'manifest.json',
    );
    const textNames = names.filter((name) => /^contents\/[^/]+\.json$/.test(name));
    const imageNames = names.filter((name) => /^images\/[^/]+\.json$/.test(name));
    expect(manifest).toMatchObject({
      workspaceId: people.workspaceId,
      texts: textNames.length,
      images: imageNames.length,
    });
    interface Exported {
      id: string;
      contentType: string;
      content: string;
      workspaceId?: number;
      metadata: { inputs?: Record<string, string> };
    }
    const items = [...textNames, ...imageNames].map((name) => jsonOf<Exported>(name));
    expect([...new Set(items.map((item) => item.workspaceId))]).toEqual([people.workspaceId]);

    const text = items.find((item) => item.metadata.inputs?.topic === topic);
    expect(text?.contentType).toBe('text');
    expect(text?.content).toContain(`Echo: Write a short note about ${topic}`);
    const markdown = entries.get(`contents/${text!.id}.md`)?.toString('utf8');
    expect(markdown).toContain(`- topic: ${topic}`);
    expect(markdown).toContain(`Echo: Write a short note about ${topic}`);

    const image = items.find((item) => item.metadata.inputs?.subject === subject);
    expect(image?.contentType).toBe('image');
    expect(image?.metadata.inputs).toMatchObject({ subject, style: 'watercolour' });
    const picture = names.filter((name) => name.startsWith(`images/${image!.id}.`));
    expect(picture.sort()).toEqual([`images/${image!.id}.json`, `images/${image!.id}.png`]);
    const png = entries.get(`images/${image!.id}.png`)!;
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');

    // nothing of the other workspace
    expect(names.filter((name) => entries.get(name)!.includes(elsewhere))).toEqual([]);
  });

  it('when a member and an admin run a template before and after it changes and one run is approved, then its Results card counts the runs per version and per user', async () => {
    const name = uniqueName('Results slogan ');
    const promptId = await createPrompt(sa, people.workspaceId, {
      name,
      template: 'First wording: a slogan for {product}',
      contentType: 'text',
      model: 'gpt-4o',
    });

    // --- version 1: two runs of the member; a reply in a conversation is not a run
    const member = await signedIn(people.member);
    const firstProduct = uniqueName('pen');
    await generateText(member, promptId, 'product', firstProduct);
    const reply = member.getByRole('textbox', { name: 'Reply' });
    await reply.fill(`Shorter, ${firstProduct}`);
    await reply.press('Enter');
    await member.getByText('Reply generated successfully').first().waitFor({ timeout: 30_000 });
    await generateText(member, promptId, 'product', uniqueName('ink'));

    // --- the template changes (set-up, through the API): version 2, one run each
    await people.adminApi.ok('PUT', `/api/prompts/${promptId}`, {
      body: { template: 'Second wording: a motto for {product}' },
      workspaceId: people.workspaceId,
    });
    const approvedProduct = uniqueName('desk');
    const usesVersion2 = (request: ProviderRequest) =>
      request.chat?.lastUserText.startsWith('Second wording') === true;
    const memberRun = await generateOnceChanged(
      member,
      people.apiKey,
      { promptId, variable: 'product', value: () => approvedProduct },
      'the generation service uses version 2',
      usesVersion2,
    );
    const admin = await signedIn(people.admin);
    const adminRun = await generateOnceChanged(
      admin,
      people.apiKey,
      { promptId, variable: 'product', value: () => uniqueName('lamp') },
      'the generation service uses version 2',
      usesVersion2,
    );
    // runs made before the change reached the generation service are runs of version 1
    const memberEarlier = memberRun.earlier;
    const adminEarlier = adminRun.earlier;

    // --- the member's version 2 text is submitted and approved (set-up, through the API)
    const ws = people.workspaceId;
    let approved: { id: string } | undefined;
    await eventually('the version 2 text is in the history', async () => {
      approved = (await allContents(people.memberApi, ws)).find((item) =>
        item.content.includes(`Second wording: a motto for ${approvedProduct}`),
      );
      return approved !== undefined;
    });
    await people.memberApi.ok('POST', `/api/contents/${approved!.id}/review`, {
      body: { action: 'submit' },
      workspaceId: ws,
    });
    await people.adminApi.ok('POST', `/api/contents/${approved!.id}/review`, {
      body: { action: 'approve' },
      workspaceId: ws,
    });

    // --- the admin reads the Results card on the prompt's edit tab (the content service keeps
    // the results as contents are stored and reviewed: read again until they are all in)
    const expectedVersions = [
      { Version: 'Version 2 Current', Runs: '2', Approved: '1', 'Share approved': '50%' },
      {
        Version: 'Version 1',
        Runs: String(2 + memberEarlier + adminEarlier),
        Approved: '0',
        'Share approved': '0%',
      },
    ];
    const expectedUsers = [
      { User: people.member.username, Runs: String(3 + memberEarlier), Approved: '1' },
      { User: 'You', Runs: String(1 + adminEarlier), Approved: '0' },
    ];
    const expected = { versions: expectedVersions, users: expectedUsers };
    let seen: unknown = null;
    await eventually(
      'the Results card counts every run',
      async () => {
        await admin.goto(`/prompts/${promptId}`);
        await admin.getByRole('tab', { name: 'Edit Prompt' }).click();
        const byVersion = admin.getByRole('table', { name: 'Results per version' });
        await byVersion.waitFor({ timeout: 15_000 });
        const byUser = admin.getByRole('table', { name: 'Results per user' });
        seen = {
          versions: await tableRows(byVersion, ['Version', 'Runs', 'Approved', 'Share approved']),
          users: (await byUser.count())
            ? await tableRows(byUser, ['User', 'Runs', 'Approved'])
            : [],
        };
        return JSON.stringify(seen) === JSON.stringify(expected);
      },
      45_000,
    ).catch(() => undefined); // the assertion below shows what was seen last
    expect(seen).toEqual(expected);
  });
});
