import { ContentExport } from '@aict/contracts';
import {
  buildContent,
  member,
  newWorkspaceId,
  startHarness,
  userOf,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(90_000);

// The repository's zip reader (the generation service reads uploaded .docx files with it).
interface ZipEntry {
  fileName: string;
}
interface ZipFile {
  readEntry(): void;
  on(event: 'entry', listener: (entry: ZipEntry) => void): void;
  on(event: 'end', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  openReadStream(
    entry: ZipEntry,
    cb: (err: Error | null, stream: NodeJS.ReadableStream) => void,
  ): void;
  close(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yauzl = require('yauzl') as {
  fromBuffer(
    buffer: Buffer,
    options: { lazyEntries: boolean },
    cb: (err: Error | null, zip: ZipFile) => void,
  ): void;
};

/** The text of one entry of a zip archive (null when it has no such entry). */
function readZipEntry(bytes: Buffer, name: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on('error', reject);
      zip.on('end', () => resolve(null));
      zip.on('entry', (entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (openErr, stream) => {
          if (openErr) return reject(openErr);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
        });
      });
      zip.readEntry();
    });
  });
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

/** A chat of three turns in a new workspace; the last answer holds a word to avoid. */
async function storeChat() {
  const ws = newWorkspaceId();
  const first = buildContent({
    workspaceId: ws,
    title: 'Spring campaign: ideas & plans',
    metadata: { inputs: { message: 'Give me three ideas' } },
    content: 'Idea one.\nIdea two.\nIdea three.',
  });
  const second = buildContent({
    workspaceId: ws,
    threadId: first.id,
    parentId: first.id,
    metadata: { originalMessage: 'Make the second one shorter' },
    content: 'A shorter idea <two> & more',
  });
  const third = buildContent({
    workspaceId: ws,
    threadId: first.id,
    parentId: second.id,
    metadata: { originalMessage: 'Thanks!' },
    content: 'Real synergy ahead.',
    voiceFlags: ['synergy'],
  });
  for (const c of [first, second, third]) await h.store(c);
  return { ws, first, second, third };
}

/** The file name a browser saves the download under (an attachment, quoted or not). */
function downloadName(headers: Headers): string | null {
  const value = headers.get('content-disposition') ?? '';
  if (!value.startsWith('attachment')) return null;
  return /filename="?([^";]+)"?/.exec(value)?.[1] ?? null;
}

const exportOf = (id: string, ws: number, format: string) =>
  h.call('GET', `/api/contents/${id}/export?format=${format}&workspaceId=${ws}`, {
    as: userOf(ws),
  });

describe('export of a conversation', () => {
  it('when it is exported as Markdown, then the download holds the title and every message in order', async () => {
    const { ws, second } = await storeChat();

    const res = await exportOf(second.id, ws, 'md');

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(downloadName(res.headers)).toBe('spring-campaign-ideas-plans.md');
    expect(res.text).toBe(
      [
        '# Spring campaign: ideas & plans',
        '',
        '## User',
        '',
        'Give me three ideas',
        '',
        '## Assistant',
        '',
        'Idea one.\nIdea two.\nIdea three.',
        '',
        '## User',
        '',
        'Make the second one shorter',
        '',
        '## Assistant',
        '',
        'A shorter idea <two> & more',
        '',
        '## User',
        '',
        'Thanks!',
        '',
        '## Assistant',
        '',
        'Real synergy ahead.',
        '',
      ].join('\n'),
    );
  });

  it('when it is exported as JSON, then it parses as the export schema with the flags of each answer', async () => {
    const { ws, first, third } = await storeChat();

    const res = await exportOf(first.id, ws, 'json');

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(downloadName(res.headers)).toBe('spring-campaign-ideas-plans.json');
    const doc = ContentExport.parse(JSON.parse(res.text));
    expect(doc.title).toBe('Spring campaign: ideas & plans');
    expect(doc.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Give me three ideas'],
      ['assistant', 'Idea one.\nIdea two.\nIdea three.'],
      ['user', 'Make the second one shorter'],
      ['assistant', 'A shorter idea <two> & more'],
      ['user', 'Thanks!'],
      ['assistant', 'Real synergy ahead.'],
    ]);
    expect(doc.messages.at(-1)).toMatchObject({ id: third.id, voiceFlags: ['synergy'] });
  });

  it('when it is exported as .docx, then the archive opens and word/document.xml holds the messages', async () => {
    const { ws, third } = await storeChat();

    const res = await exportOf(third.id, ws, 'docx');

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(downloadName(res.headers)).toBe('spring-campaign-ideas-plans.docx');
    const xml = await readZipEntry(res.bytes, 'word/document.xml');
    expect(xml).not.toBeNull();
    const texts = [...xml!.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]);
    expect(texts).toEqual([
      'Spring campaign: ideas &amp; plans',
      'User',
      'Give me three ideas',
      'Assistant',
      'Idea one.',
      'Idea two.',
      'Idea three.',
      'User',
      'Make the second one shorter',
      'Assistant',
      'A shorter idea &lt;two&gt; &amp; more',
      'User',
      'Thanks!',
      'Assistant',
      'Real synergy ahead.',
    ]);
  });

  it('when a text generation without a message is exported, then its prompt inputs are the question', async () => {
    const ws = newWorkspaceId();
    const text = buildContent({
      workspaceId: ws,
      title: 'Bikes',
      metadata: { inputs: { subject: 'bicycles', language: 'nl' } },
      content: 'Fietsen!',
    });
    await h.store(text);

    const res = await exportOf(text.id, ws, 'json');

    expect(ContentExport.parse(res.body).messages.map((m) => m.content)).toEqual([
      'subject: bicycles\nlanguage: nl',
      'Fietsen!',
    ]);
  });

  it.each(['pdf', '', 'MD'])(
    'when the format is %p, then 400 and nothing is exported',
    async (format) => {
      const { ws, first } = await storeChat();

      const res = await exportOf(first.id, ws, format);

      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION.FAILED');
      expect(JSON.stringify(res.body)).toContain('Format must be one of: md, json, docx');
    },
  );

  it('when someone outside the workspace exports it, then 404 as for reading it', async () => {
    const { ws, first } = await storeChat();
    const outsider = member({ [ws + 1]: 'admin' });

    const res = await h.call('GET', `/api/contents/${first.id}/export?format=md`, {
      as: outsider,
    });
    const read = await h.call('GET', `/api/contents/${first.id}`, { as: outsider });

    expect(res.status).toBe(404);
    expect(read.status).toBe(404);
  });
});

describe('words to avoid', () => {
  it('when a stored content carries voice flags, then history, the content and its conversation show them', async () => {
    const { ws, first, third } = await storeChat();

    const list = await h.call('GET', `/api/contents?workspaceId=${ws}`, { as: userOf(ws) });
    const one = await h.call('GET', `/api/contents/${third.id}?workspaceId=${ws}`, {
      as: userOf(ws),
    });
    const conversation = await h.call(
      'GET',
      `/api/contents/${first.id}/conversation?workspaceId=${ws}`,
      { as: userOf(ws) },
    );

    const flagsById = (items: Array<{ id: string; voiceFlags?: string[] }>) =>
      Object.fromEntries(items.map((i) => [i.id, i.voiceFlags ?? null]));
    expect(flagsById(list.body.items)[third.id]).toEqual(['synergy']);
    expect(flagsById(list.body.items)[first.id]).toBeNull();
    expect(one.body.voiceFlags).toEqual(['synergy']);
    expect(flagsById(conversation.body)[third.id]).toEqual(['synergy']);
  });
});
