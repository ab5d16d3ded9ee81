import { pngDeclaring } from '@aict/service-kit/testing';
import { docxBomb } from '../test-support/bombs';
import { formWith } from '../test-support/fixtures';
import { startHarness, type Harness, type Workspace } from '../test-support/harness';

// Hardening: hostile uploads (a zip bomb, a huge declared image, tricky names, HTML as text).

let t: Harness;
let ws: Workspace;
let chatPrompt: string;
beforeAll(async () => {
  t = await startHarness();
  ws = await t.newWorkspace();
  chatPrompt = await t.newPrompt(ws, { template: 'You are a helpful assistant.' });
}, 90_000);
afterAll(() => t?.stop(), 60_000);

const upload = (files: Parameters<typeof formWith>[0]) =>
  t.call('POST', '/api/uploads/chat-attachments', {
    as: ws.user,
    headers: { 'x-workspace-id': String(ws.id) },
    form: formWith(files),
  });

const generateWith = (attachmentIds: string[], message = 'Summarise the file') =>
  t.call('POST', '/api/generate', {
    as: ws.user,
    body: { promptId: chatPrompt, inputs: { message }, attachments: attachmentIds },
  });

const chatRequests = () =>
  t.sim.control.requests({ apiKey: ws.apiKey, path: '/v1/chat/completions' });

describe('a document that expands enormously', () => {
  it('when four DOCX files expanding to 600 MB each are attached at once, then each is 422 naming the limit and the service still answers', async () => {
    const bomb = docxBomb(600, { lie: true });
    const uploaded = await upload([{ bytes: bomb, name: 'bomb.docx' }]);
    expect(uploaded.status).toBe(201);
    const before = chatRequests().length;

    const answers = await Promise.all(
      Array.from({ length: 4 }, () => generateWith([uploaded.body.files[0].id])),
    );

    for (const res of answers) {
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        code: 'FILE.UNREADABLE',
        message:
          'The file could not be read: bomb.docx. The file expands to more than 50 MB when unpacked.',
      });
    }
    expect(chatRequests().length).toBe(before);
    const text = await upload([{ bytes: Buffer.from('Still here.'), name: 'ok.txt' }]);
    const after = await generateWith([text.body.files[0].id]);
    expect(after.status).toBe(200);
    expect(chatRequests().at(-1)!.chat!.lastUserText).toContain('Still here.');
  }, 60_000);
});

describe('images whose header declares too many pixels', () => {
  const huge = pngDeclaring(40_000, 40_000);

  it('when generate-with-image gets a PNG declaring 40000×40000, then 413 names the limit and nothing reaches the provider', async () => {
    const promptId = await t.newPrompt(ws, { contentType: 'image', model: 'gpt-image-1' });
    const edits = () => t.sim.control.requests({ apiKey: ws.apiKey, path: '/v1/images/edits' });
    const before = edits().length;
    const form = new FormData();
    form.append('promptId', promptId);
    form.append('model', 'gpt-image-1');
    form.append('workspaceId', String(ws.id));
    form.append('file', new Blob([new Uint8Array(huge)], { type: 'image/png' }), 'huge.png');

    const res = await t.call('POST', '/api/generate-with-image', { as: ws.user, form });

    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 'FILE.TOO_LARGE',
      message: 'The image must be at most 25 megapixels.',
    });
    expect(edits().length).toBe(before);
  });

  it('when a chat attachment is a PNG declaring 40000×40000, then 413 names the limit and nothing is stored', async () => {
    const before = await t.generation.deps.mongo!.collection('attachments').countDocuments();

    const res = await upload([{ bytes: huge, name: 'huge.png', type: 'image/png' }]);

    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 'FILE.TOO_LARGE',
      message: 'The image must be at most 25 megapixels.',
    });
    expect(await t.generation.deps.mongo!.collection('attachments').countDocuments()).toBe(before);
  });
});

describe('names of uploaded files', () => {
  it('when a name arrives as raw UTF-8 with a right-to-left override, then it is read as UTF-8, composed and shown without the override', async () => {
    // FormData writes the name as raw UTF-8 bytes in filename="…" (as browsers do).
    const res = await upload([
      {
        bytes: Buffer.from('notes'),
        name: 'Cafe\u0301 re\u0301sume\u0301 \u202Etxt.exe',
        type: 'text/plain',
      },
    ]);

    expect(res.status).toBe(201);
    expect(res.body.files[0].originalName).toBe('Café résumé txt.exe');
    const file = await t.call('GET', res.body.files[0].url, { as: ws.user });
    expect(file.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('Café résumé txt.exe')}`,
    );
  });
});

describe('text files', () => {
  it('when a .txt file holds HTML, then it is accepted as text and served as a download that is not sniffed', async () => {
    const html = '<!DOCTYPE html><html><script>alert(1)</script></html>';

    const res = await upload([
      { bytes: Buffer.from(html), name: 'page-source.txt', type: 'text/plain' },
    ]);

    expect(res.status).toBe(201);
    expect(res.body.files[0]).toMatchObject({ mimeType: 'text/plain', size: html.length });
    const file = await t.call('GET', res.body.files[0].url, { as: ws.user });
    expect(file.status).toBe(200);
    expect(file.text).toBe(html);
    expect(file.headers.get('content-type')).toMatch(/^text\/plain\b/);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('when an HTML page is sent as .html, then it is refused as a type that is not allowed', async () => {
    const res = await upload([
      { bytes: Buffer.from('<html><body>hi</body></html>'), name: 'page.html', type: 'text/html' },
    ]);

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('FILE.INVALID_TYPE');
  });
});
