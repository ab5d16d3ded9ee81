import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser';
import { makePng } from './support/png';
import { chooseWorkspace, signInThroughUi, superAdmin, uniqueName } from './support/session';

// Issue 7, end to end: in a workspace of its own (its own default prompt and provider key,
// the provider being the simulator), a user chats with an image and a PDF attached, gets a
// streamed answer, replies, reloads, finds the conversation in the history panel by a word of
// it, reopens it read-only and continues it; a hostile markdown answer runs no script; at
// 375 px the screen does not scroll sideways (SPEC §2 Chat screen and history panel, §4, §5).

/** A small valid PDF with one line of text (xref offsets computed). */
function makePdf(text: string): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A workspace for this file: the provider key and a default chat prompt. */
async function prepareWorkspace(page: Page): Promise<number> {
  const api = page.request;
  const created = await api.post('/api/workspaces', { data: { name: uniqueName('Chat ') } });
  expect(created.status()).toBeLessThan(300);
  const workspace = (await created.json()) as { id: number; name: string };
  const key = await api.put(`/api/workspaces/${workspace.id}/settings/openai_api_key`, {
    data: { value: 'sk-e2e-chat-key' },
    headers: { 'x-workspace-id': String(workspace.id) },
  });
  expect(key.status()).toBeLessThan(300);
  const prompt = await api.post('/api/prompts', {
    data: {
      name: 'Chat default',
      template: '{message}',
      category: 'Marketing',
      contentType: 'text',
      model: 'gpt-4o',
      isPublic: false,
      isDefault: true,
      workspaceId: workspace.id,
    },
    headers: { 'x-workspace-id': String(workspace.id) },
  });
  expect(prompt.status()).toBeLessThan(300);
  return workspace.id;
}

async function openChat(page: Page, workspaceId: number) {
  await chooseWorkspace(page, workspaceId);
  await page.getByPlaceholder('Ask me a question').waitFor();
}

async function sendMessage(page: Page, text: string) {
  const box = page.getByPlaceholder('Ask me a question');
  await box.fill(text);
  await box.press('Enter');
}

const lastAnswer = (page: Page) =>
  page.getByRole('list', { name: 'Messages' }).getByRole('listitem', { name: 'Assistant' }).last();

describe('chat, end to end', () => {
  let browser: Browser;
  let workspaceId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('when a user chats with an image and a PDF, replies, reloads and reopens the conversation, then every step shows', async () => {
    const admin = superAdmin();
    const { context, page } = await newPage(browser);
    await signInThroughUi(page, admin.username, admin.password);
    workspaceId = await prepareWorkspace(page);
    await page.reload(); // the header lists the new workspace
    await openChat(page, workspaceId);
    await page.getByText('How can I help you today?').waitFor();

    // --- attach an image and a PDF (checked, uploaded, listed with their sizes)
    await page.getByTestId('file-input').setInputFiles([
      { name: 'photo.png', mimeType: 'image/png', buffer: makePng(16, 16) },
      {
        name: 'notes.pdf',
        mimeType: 'application/pdf',
        buffer: makePdf('Pinguins leven op Antarctica'),
      },
    ]);
    await page.getByText('Successfully uploaded 2 file(s)').waitFor();
    const chips = page.getByRole('list', { name: 'Attachments' });
    await chips.getByText('photo.png').waitFor();
    await chips.getByText('notes.pdf').waitFor();

    // --- the first message streams its answer
    const word = uniqueName('pinguin');
    await sendMessage(page, `Vertel over ${word}`);
    await page
      .getByText('Aan het typen...')
      .or(lastAnswer(page).getByText('Echo:'))
      .first()
      .waitFor();
    await lastAnswer(page).getByText(`Echo: Vertel over ${word}`).waitFor({ timeout: 30_000 });
    await lastAnswer(page).getByText('Images received: 1.').waitFor();
    await page.getByRole('button', { name: 'Send message' }).waitFor();
    expect(await page.getByRole('list', { name: 'Attachments' }).count()).toBe(0);

    // --- a reply goes with the history
    await sendMessage(page, 'En ijsberen?');
    await lastAnswer(page).getByText('Echo: En ijsberen?').waitFor({ timeout: 30_000 });
    // the simulator repeats the history it was sent
    await lastAnswer(page).getByText(word, { exact: false }).waitFor();

    // --- reload: a new chat; the history panel finds the conversation by a word of it
    await page.reload();
    await page.getByText('How can I help you today?').waitFor();
    const panel = page.getByRole('complementary', { name: 'Content History' });
    await panel.getByPlaceholder('Search content...').fill(word);
    await panel.getByText(/1 item\(s\) matching|2 item\(s\) matching/).waitFor();
    await panel.getByRole('list', { name: 'History items' }).getByRole('button').first().click();

    // --- read-only, then continued
    await page.getByText('Viewing conversation history').waitFor();
    await page.getByText('Gesprek geladen', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('conversation')).toBeTruthy();
    expect(await page.getByPlaceholder('Ask me a question').count()).toBe(0);
    await page
      .getByRole('list', { name: 'Messages' })
      .getByText(`Vertel over ${word}`, { exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Continue this conversation' }).click();
    await page.getByText('Gesprek voortgezet').waitFor();
    await sendMessage(page, 'En zeehonden?');
    await lastAnswer(page).getByText('Echo: En zeehonden?').waitFor({ timeout: 30_000 });
    await context.close();
  });

  it('when an answer carries hostile markdown, then no script runs and nothing loads from elsewhere', async () => {
    const admin = superAdmin();
    const { context, page } = await newPage(browser);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(new URL(page.url() || 'http://127.0.0.1').origin)) {
        if (request.url().includes('evil.example')) outside.push(request.url());
      }
    });
    await signInThroughUi(page, admin.username, admin.password);
    await openChat(page, workspaceId);
    // The simulator echoes the message: the answer carries the same markdown.
    const hostile = [
      '<script>window.__pwned = 1</script>',
      '<img src="x" onerror="window.__pwned = 2">',
      '[klik](javascript:window.__pwned=3)',
      '<svg onload="window.__pwned = 4"></svg>',
      '![pixel](https://evil.example/pixel.png)',
    ].join(' ');
    await sendMessage(page, hostile);
    await lastAnswer(page).getByText('Images received: 0.').waitFor({ timeout: 30_000 });
    const answer = lastAnswer(page);
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    expect(
      await answer
        .locator('.wk-markdown')
        .locator('script, svg, img, a[href^="javascript"]')
        .count(),
    ).toBe(0);
    // the hostile parts did arrive: as inert text and a plain link, not as elements
    await answer.getByText('klik', { exact: false }).first().waitFor();
    expect(await answer.getByRole('link', { name: 'pixel' }).getAttribute('rel')).toBe(
      'noopener noreferrer',
    );
    expect(outside).toEqual([]);
    await context.close();
  });

  it('when the chat is used at 375 px, then nothing scrolls sideways and the history opens as a sheet', async () => {
    const admin = superAdmin();
    const { context, page } = await newPage(browser, { width: 375, height: 740 });
    await signInThroughUi(page, admin.username, admin.password);
    await page.getByPlaceholder('Ask me a question').waitFor();
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByRole('complementary', { name: 'Content History' }).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await context.close();
  });
});
