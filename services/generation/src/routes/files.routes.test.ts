import { MAX_CHAT_FILE_BYTES, MAX_CHAT_TOTAL_BYTES } from '@aict/contracts';
import { docxWith, formWith, pdfWith, PNG } from '../test-support/fixtures';
import { startHarness, type Harness, type Workspace } from '../test-support/harness';

let t: Harness;
let ws: Workspace;
let chatPrompt: string;
beforeAll(async () => {
  t = await startHarness();
  ws = await t.newWorkspace();
  chatPrompt = await t.newPrompt(ws, { template: 'You are a helpful assistant.' });
}, 90_000);
afterAll(() => t?.stop(), 60_000);

const upload = (
  as: Workspace['user'],
  files: Parameters<typeof formWith>[0],
  workspaceId = ws.id,
) =>
  t.call('POST', '/api/uploads/chat-attachments', {
    as,
    headers: { 'x-workspace-id': String(workspaceId) },
    form: formWith(files),
  });

const chatRequests = (w: Workspace) =>
  t.sim.control.requests({ apiKey: w.apiKey, path: '/v1/chat/completions' });

describe('chat attachments: limits and types', () => {
  it('when allowed files are uploaded, then each comes back with id, name, type from its bytes, size and url, readable by its owner only', async () => {
    const res = await upload(ws.user, [
      { bytes: PNG, name: 'photo.jpg', type: 'image/jpeg' },
      { bytes: Buffer.from('hello world'), name: 'notes.txt', type: 'text/plain' },
    ]);

    expect(res.status).toBe(201);
    const [image, text] = res.body.files;
    expect(image).toMatchObject({
      originalName: 'photo.jpg',
      mimeType: 'image/png',
      size: PNG.length,
    });
    expect(text).toMatchObject({ mimeType: 'text/plain', size: 11 });
    expect(text.url).toBe(`/api/uploads/chat-attachments/${text.id}?workspaceId=${ws.id}`);

    const mine = await t.call('GET', text.url, { as: ws.user });
    expect(mine.status).toBe(200);
    expect(mine.text).toBe('hello world');
    const colleague = await t.call('GET', text.url, { as: ws.admin });
    expect(colleague.status).toBe(404);
  });

  it.each([
    [
      'an HTML page named .html',
      Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'),
      'a.html',
    ],
    [
      'an SVG image',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>'),
      'a.svg',
    ],
    ['bytes that are not UTF-8 text', Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x90]), 'a.txt'],
  ])(
    'when %s is uploaded, then FILE.INVALID_TYPE and nothing is stored',
    async (_what, bytes, name) => {
      const before = await t.generation.deps.mongo!.collection('attachments').countDocuments();
      const res = await upload(ws.user, [{ bytes, name, type: 'text/plain' }]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'FILE.INVALID_TYPE',
        message: 'Only PNG, JPG, JPEG, WebP, PDF, DOC, DOCX, and TXT files are allowed.',
      });
      expect(await t.generation.deps.mongo!.collection('attachments').countDocuments()).toBe(
        before,
      );
    },
  );

  it('when an 11th file is sent, then FILE.TOO_MANY', async () => {
    const files = Array.from({ length: 11 }, (_, i) => ({
      bytes: Buffer.from(`file ${i}`),
      name: `${i}.txt`,
    }));
    const res = await upload(ws.user, files);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'FILE.TOO_MANY',
      message: 'You can attach a maximum of 10 files.',
    });
  });

  it('when a file is 10 MB + 1 byte, then FILE.TOO_LARGE', async () => {
    const res = await upload(ws.user, [
      { bytes: Buffer.alloc(MAX_CHAT_FILE_BYTES + 1, 'a'), name: 'big.txt' },
    ]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 'FILE.TOO_LARGE',
      message: 'Each file must be smaller than 10MB.',
    });
  });

  it('when the files add up to 30 MB + 1 byte, then FILE.TOTAL_TOO_LARGE', async () => {
    const each = MAX_CHAT_FILE_BYTES - 1;
    const rest = MAX_CHAT_TOTAL_BYTES + 1 - 3 * each;
    const files = [each, each, each, rest].map((size, i) => ({
      bytes: Buffer.alloc(size, 'b'),
      name: `${i}.txt`,
    }));
    const res = await upload(ws.user, files);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      code: 'FILE.TOTAL_TOO_LARGE',
      message: 'Total file size cannot exceed 30MB.',
    });
  });
});

describe('chat attachments reaching the model', () => {
  it('when a PDF, a DOCX and a TXT are attached, then their text reaches the model; an image goes as an image', async () => {
    const files = [
      { bytes: await pdfWith('Quarterly revenue grew by seventeen percent.'), name: 'report.pdf' },
      { bytes: await docxWith('The launch is planned for March.'), name: 'plan.docx' },
      { bytes: Buffer.from('Remember the blue logo.'), name: 'notes.txt' },
      { bytes: PNG, name: 'logo.png' },
    ];
    const uploaded = await upload(ws.user, files);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.files.map((f: { mimeType: string }) => f.mimeType)).toEqual([
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'text/plain',
      'image/png',
    ]);

    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: {
        promptId: chatPrompt,
        inputs: { message: 'Summarise the files' },
        language: 'nl',
        attachments: uploaded.body.files.map((f: { id: string }) => f.id),
      },
    });

    expect(res.status).toBe(200);
    const chat = chatRequests(ws).at(-1)!.chat!;
    expect(chat.lastUserText).toContain('Quarterly revenue grew by seventeen percent.');
    expect(chat.lastUserText).toContain('The launch is planned for March.');
    expect(chat.lastUserText).toContain('Remember the blue logo.');
    expect(chat.imageCount).toBe(1);
    expect(res.body.result.text).toContain('Images received: 1.');
  });

  it('when an attachment of another workspace is named, then 404 and nothing reaches the model', async () => {
    const other = await t.newWorkspace();
    const theirs = await upload(
      other.user,
      [{ bytes: Buffer.from('secret plans'), name: 's.txt' }],
      other.id,
    );
    const before = chatRequests(ws).length;

    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: {
        promptId: chatPrompt,
        inputs: { message: 'read it' },
        attachments: [theirs.body.files[0].id],
      },
    });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('FILE.NOT_FOUND');
    expect(chatRequests(ws).length).toBe(before);
  });

  it('when a document is broken inside, then 422 FILE.UNREADABLE and nothing reaches the model', async () => {
    const pdf = await pdfWith('x');
    const broken = Buffer.concat([pdf.subarray(0, 64), Buffer.alloc(2048, 0x41)]);
    const uploaded = await upload(ws.user, [{ bytes: broken, name: 'broken.pdf' }]);
    expect(uploaded.status).toBe(201);
    const before = chatRequests(ws).length;

    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: {
        promptId: chatPrompt,
        inputs: { message: 'read' },
        attachments: [uploaded.body.files[0].id],
      },
    });

    expect(res.status).toBe(422);
    expect(res.body.code).toBe('FILE.UNREADABLE');
    expect(chatRequests(ws).length).toBe(before);
  });
});
