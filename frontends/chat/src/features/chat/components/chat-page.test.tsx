import '../../../test/setup';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { dismissToast } from '@aict/web-kit';
import { answer } from '@aict/web-kit/testing';
import { buildContent, chatServer, generations } from '../../../test/chat-api';
import { renderChat, setViewportWidth } from '../../../test/render-chat';

// SPEC §2 Chat screen, §4 Chat, §5 Chat sending and attachments, §7 generate calls, §8 texts.

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  setViewportWidth(1440);
  act(() => dismissToast());
});

const box = () => screen.getByPlaceholderText('Ask me a question');
const location = () => screen.getByRole('status', { name: 'location' }).textContent;

async function type(text: string, key: Partial<KeyboardEvent> = {}) {
  fireEvent.change(box(), { target: { value: text } });
  fireEvent.keyDown(box(), { key: 'Enter', ...key });
}

async function ready() {
  expect(await screen.findByRole('heading', { name: 'Acme GPT' })).toBeTruthy();
  await waitFor(() => expect((box() as HTMLTextAreaElement).disabled).toBe(false));
}

describe('sending', () => {
  it('when the chat is empty, then it greets, names the workspace and offers the message box', async () => {
    chatServer();
    renderChat();
    await ready();
    expect(screen.getByText('How can I help you today?')).toBeTruthy();
    expect(document.title).toMatch(/^Acme GPT/);
    expect(screen.getByRole('button', { name: 'Attach files' })).toBeTruthy();
  });

  it('when Enter is pressed on a blank message without files, then the Dutch toast asks for a message and nothing is sent', async () => {
    const { calls } = chatServer();
    renderChat();
    await ready();
    await type('   ');
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Voer een bericht in');
    expect(toast.textContent).toContain(
      'Je moet een vraag stellen of bestanden bijvoegen om een antwoord te krijgen.',
    );
    expect(generations(calls)).toHaveLength(0);
  });

  it('when Shift+Enter is pressed, then nothing is sent', async () => {
    const { calls } = chatServer();
    renderChat();
    await ready();
    await type('Hallo', { shiftKey: true });
    await act(async () => undefined);
    expect(generations(calls)).toHaveLength(0);
  });

  it('when the first message is sent, then generate gets the default prompt, the message and nl; a reply then carries the history, model and parent id', async () => {
    const { calls } = chatServer();
    renderChat();
    await ready();
    await type('Wat is een API?');
    expect(await screen.findByText('Antwoord 1')).toBeTruthy();
    expect(generations(calls)[0]).toMatchObject({
      url: '/api/generate',
      body: {
        promptId: 'p-default',
        inputs: { message: 'Wat is een API?' },
        language: 'nl',
        workspaceId: 1,
        attachments: [],
      },
      headers: { Accept: 'text/event-stream', 'x-workspace-id': '1' },
    });
    expect((box() as HTMLTextAreaElement).value).toBe('');

    await type('En een SDK?');
    expect(await screen.findByText('Antwoord 2')).toBeTruthy();
    expect(generations(calls)[1]).toMatchObject({
      url: '/api/generate-reply',
      body: {
        message: 'En een SDK?',
        conversationHistory: [
          { role: 'user', content: 'Wat is een API?' },
          { role: 'assistant', content: 'Antwoord 1' },
        ],
        model: 'gpt-4-turbo',
        parentContentId: 'new1',
      },
    });
    const bubbles = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(bubbles.map((b) => b.getAttribute('aria-label'))).toEqual([
      'You',
      'Assistant',
      'You',
      'Assistant',
    ]);
  });

  it('when the default prompt is still loading at send and turns out missing, then "Geen standaard prompt" shows and nothing is generated', async () => {
    let release = () => undefined as void;
    const { calls } = chatServer({
      routes: {
        'GET /api/prompts/default?workspaceId=1': () =>
          new Promise((resolve) => {
            release = () => resolve(answer(404, { message: 'No default prompt' }));
          }),
      },
    });
    renderChat();
    await ready();
    await type('Hallo');
    act(() => release());
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Geen standaard prompt');
    expect(toast.textContent).toContain(
      'Er is geen standaard prompt geconfigureerd voor deze workspace.',
    );
    expect(generations(calls)).toHaveLength(0);
    expect((box() as HTMLTextAreaElement).value).toBe('Hallo');
  });

  it("when generation fails, then 'Fout bij genereren' shows the server's message and the text is kept", async () => {
    chatServer({
      routes: {
        'POST /api/generate': () =>
          answer(502, { code: 'PROVIDER.UNAVAILABLE', message: 'The AI provider is unavailable' }),
      },
    });
    renderChat();
    await ready();
    await type('Hallo');
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Fout bij genereren');
    expect(toast.textContent).toContain('The AI provider is unavailable');
    expect((box() as HTMLTextAreaElement).value).toBe('Hallo');
  });
});

/** A streamed answer the test feeds piece by piece. */
function streamingAnswer() {
  const encoder = new TextEncoder();
  const queue: Array<(r: { done: boolean; value?: Uint8Array }) => void> = [];
  const pending: Array<{ done: boolean; value?: Uint8Array }> = [];
  let signal: AbortSignal | undefined;
  const push = (r: { done: boolean; value?: Uint8Array }) => {
    const waiter = queue.shift();
    if (waiter) waiter(r);
    else pending.push(r);
  };
  const response = {
    ok: true,
    status: 200,
    statusText: 'OK',
    headers: { get: () => 'text/event-stream' },
    text: async () => '',
    body: {
      getReader: () => ({
        read: () =>
          new Promise<{ done: boolean; value?: Uint8Array }>((resolve, reject) => {
            signal?.addEventListener('abort', () =>
              reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
            );
            const ready = pending.shift();
            if (ready) resolve(ready);
            else queue.push(resolve);
          }),
        releaseLock: () => undefined,
      }),
    },
  };
  return {
    respond: (init: { signal?: AbortSignal }) => {
      signal = init.signal;
      return response;
    },
    send: (event: string, data: unknown) =>
      push({
        done: false,
        value: encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
      }),
    end: () => push({ done: true }),
  };
}

describe('streaming', () => {
  it('when an answer streams, then "Aan het typen..." shows first, the text grows, and Stop stops it', async () => {
    const stream = streamingAnswer();
    const { calls } = chatServer();
    const fetchStub = globalThis.fetch as jest.Mock;
    const original = fetchStub.getMockImplementation()!;
    fetchStub.mockImplementation(async (url: string, init: RequestInit) =>
      url === '/api/generate'
        ? (calls.push({} as never), stream.respond(init as never))
        : original(url, init),
    );
    renderChat();
    await ready();
    await type('Vertel een verhaal');
    expect(await screen.findByText('Aan het typen...')).toBeTruthy();
    act(() => stream.send('delta', { text: 'Er was ' }));
    expect(await screen.findByText('Er was')).toBeTruthy();
    act(() => stream.send('delta', { text: 'eens een draak' }));
    expect(await screen.findByText('Er was eens een draak')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stop generating' }));
    expect(await screen.findByText('Stopped')).toBeTruthy();
    expect(screen.getByText('Er was eens een draak')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send message' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('attachments', () => {
  const fileInput = () => screen.getByTestId('file-input') as HTMLInputElement;
  const pick = (files: File[]) => fireEvent.change(fileInput(), { target: { files } });
  const sized = (name: string, type: string, size: number) => {
    const file = new File(['x'], name, { type });
    Object.defineProperty(file, 'size', { value: size });
    return file;
  };

  it('when a file is too large, then "File too large" shows and nothing is uploaded', async () => {
    const { calls } = chatServer();
    renderChat();
    await ready();
    pick([sized('big.pdf', 'application/pdf', 10 * 1024 * 1024)]);
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('File too large');
    expect(toast.textContent).toContain('Each file must be smaller than 10MB.');
    expect(calls.some((c) => c.url.startsWith('/api/uploads'))).toBe(false);
  });

  it('when a GIF is dropped, then "Invalid file type" shows', async () => {
    chatServer();
    renderChat();
    await ready();
    const composer = screen.getByTestId('composer');
    fireEvent.dragOver(composer, { dataTransfer: { files: [] } });
    expect(screen.getByText('Drop files here to attach')).toBeTruthy();
    fireEvent.drop(composer, { dataTransfer: { files: [sized('a.gif', 'image/gif', 10)] } });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Only PNG, JPG, JPEG, WebP, PDF, DOC, DOCX, and TXT files are allowed.',
    );
    expect(screen.queryByText('Drop files here to attach')).toBeNull();
  });

  it('when valid files are attached, then they upload, show with their size, go with the message and are cleared after', async () => {
    const uploaded = [
      {
        id: 'a1',
        originalName: 'photo.png',
        mimeType: 'image/png',
        size: 1536,
        url: '/api/uploads/chat-attachments/a1?workspaceId=1',
      },
    ];
    const { calls } = chatServer({
      routes: { 'POST /api/uploads/chat-attachments': () => answer(201, { files: uploaded }) },
    });
    renderChat();
    await ready();
    pick([sized('photo.png', 'image/png', 1536)]);
    expect(await screen.findByText('Successfully uploaded 1 file(s)')).toBeTruthy();
    const upload = calls.find((c) => c.url === '/api/uploads/chat-attachments')!;
    expect(upload.headers['x-workspace-id']).toBe('1');
    expect((upload.body as FormData).getAll('files')).toHaveLength(1);
    const chips = screen.getByRole('list', { name: 'Attachments' });
    expect(within(chips).getByText('photo.png')).toBeTruthy();
    expect(within(chips).getByText('1.5 KB')).toBeTruthy();

    await type('');
    expect(await screen.findByText('Antwoord 1')).toBeTruthy();
    expect(generations(calls)[0]!.body).toMatchObject({ attachments: ['a1'] });
    expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull();
  });

  it("when the upload is refused, then 'Upload failed' shows the server's message", async () => {
    chatServer({
      routes: {
        'POST /api/uploads/chat-attachments': () =>
          answer(413, { message: 'Total file size cannot exceed 30MB.' }),
      },
    });
    renderChat();
    await ready();
    pick([sized('a.txt', 'text/plain', 10)]);
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Upload failed');
    expect(toast.textContent).toContain('Total file size cannot exceed 30MB.');
  });
});

describe('conversations from the URL', () => {
  const first = buildContent({
    id: 't1',
    title: 'Over APIs',
    content: 'Een API is…',
    metadata: { inputs: { message: 'Wat is een API?' } },
  });
  const second = buildContent({
    id: 't2',
    parentId: 't1',
    title: 'Over APIs',
    content: 'Een SDK is…',
    metadata: { originalMessage: 'En een SDK?' },
  });

  it('when ?conversation= names a thread, then it is rebuilt read-only and can be continued', async () => {
    const { calls } = chatServer({ threads: { t2: [first, second] }, contents: [] });
    renderChat('/?conversation=t2');
    expect(await screen.findByText('Viewing conversation history')).toBeTruthy();
    const texts = within(screen.getByRole('list', { name: 'Messages' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(texts).toEqual(['Wat is een API?', 'Een API is…', 'En een SDK?', 'Een SDK is…']);
    expect(screen.queryByPlaceholderText('Ask me a question')).toBeNull();
    expect(await screen.findByText('Gesprek geladen met 4 berichten: "Over APIs"')).toBeTruthy();

    const carryOn = screen.getByRole('button', { name: 'Continue this conversation' });
    act(() => carryOn.focus());
    fireEvent.click(carryOn);
    expect(await screen.findByText('Gesprek voortgezet')).toBeTruthy();
    // A control of the chat screen itself hands the focus on to the box.
    await waitFor(() => expect(document.activeElement).toBe(box()));
    await type('En REST?');
    expect(await screen.findByText('Antwoord 1')).toBeTruthy();
    expect(generations(calls)[0]).toMatchObject({
      url: '/api/generate-reply',
      body: { parentContentId: 't2', message: 'En REST?' },
    });
  });

  it('when the back button is pressed, then a new chat starts and the URL loses its parameters', async () => {
    chatServer({ threads: { t2: [first, second] } });
    renderChat('/?conversation=t2');
    fireEvent.click(await screen.findByRole('button', { name: 'Back to new chat' }));
    expect(await screen.findByText('How can I help you today?')).toBeTruthy();
    expect(location()).toBe('/');
  });

  it('when ?conversation= names nothing, then "Gesprek niet gevonden" shows', async () => {
    chatServer();
    renderChat('/?conversation=missing');
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Gesprek niet gevonden');
    expect(toast.textContent).toContain('Het opgevraagde gesprek kon niet worden geladen.');
  });

  it('when the content exists but its thread fails, then its own text shows with "Fout bij laden gesprek"', async () => {
    chatServer({
      contents: [first],
      routes: { 'GET /api/contents/t1/conversation': () => answer(500, 'boom') },
    });
    renderChat('/?conversation=t1');
    expect((await screen.findByRole('alert')).textContent).toContain('Kon het gesprek niet laden.');
    expect(screen.getByText('Een API is…')).toBeTruthy();
  });

  it('when ?continue=true finds a saved record, then it loads and the URL becomes conversation={id}', async () => {
    sessionStorage.setItem(
      'continueConversation',
      JSON.stringify({
        contentId: 't2',
        contentTitle: 'Over APIs',
        initialContent: 'Een SDK is…',
        model: 'gpt-4o',
        promptId: null,
        workspaceId: 1,
        metadata: {},
      }),
    );
    chatServer({ threads: { t2: [first, second] } });
    renderChat('/?continue=true');
    expect(await screen.findByText('Gesprek geladen met 4 berichten: "Over APIs"')).toBeTruthy();
    expect(location()).toBe('/?conversation=t2');
  });

  it('when the saved record is corrupt, then "Fout bij laden gesprek" shows', async () => {
    sessionStorage.setItem('continueConversation', '{not json');
    chatServer();
    renderChat('/?continue=true');
    expect((await screen.findByRole('alert')).textContent).toContain('Fout bij laden gesprek');
    expect(location()).toBe('/');
  });

  it('when a new chat starts, then the saved record is removed', async () => {
    sessionStorage.setItem('continueConversation', JSON.stringify({ contentId: 't2' }));
    chatServer({ threads: { t2: [first, second] } });
    renderChat('/?conversation=t2');
    fireEvent.click(await screen.findByRole('button', { name: 'Back to new chat' }));
    await screen.findByText('How can I help you today?');
    expect(sessionStorage.getItem('continueConversation')).toBeNull();
  });
});

describe('voice and audio', () => {
  afterEach(() => {
    const scope = window as unknown as Record<string, unknown>;
    delete scope.SpeechRecognition;
    delete scope.speechSynthesis;
    delete scope.SpeechSynthesisUtterance;
  });

  it('when the browser has no speech APIs, then no voice or read-aloud button shows', async () => {
    chatServer();
    renderChat();
    await ready();
    await type('Hallo');
    await screen.findByText('Antwoord 1');
    expect(screen.queryByRole('button', { name: 'Start voice input' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Read aloud' })).toBeNull();
  });

  it('when the browser has them, then dictation fills the box and an answer can be read aloud', async () => {
    const spoken: string[] = [];
    class Recognition {
      lang = '';
      interimResults = false;
      continuous = false;
      onresult: ((e: unknown) => void) | null = null;
      onend: (() => void) | null = null;
      onerror = null;
      start() {
        setTimeout(() => {
          this.onresult?.({
            resultIndex: 0,
            results: [Object.assign([{ transcript: 'goedemorgen' }], { isFinal: true })],
          });
          this.onend?.();
        });
      }
      stop() {
        this.onend?.();
      }
    }
    Object.assign(window, {
      SpeechRecognition: Recognition,
      SpeechSynthesisUtterance: class {
        lang = '';
        onend = null;
        onerror = null;
        constructor(readonly text: string) {}
      },
      speechSynthesis: {
        speak: (u: { text: string }) => spoken.push(u.text),
        cancel: () => undefined,
      },
    });
    chatServer();
    renderChat();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Start voice input' }));
    await waitFor(() => expect((box() as HTMLTextAreaElement).value).toBe('goedemorgen'));
    fireEvent.keyDown(box(), { key: 'Enter' });
    await screen.findByText('Antwoord 1');
    fireEvent.click(screen.getByRole('button', { name: 'Read aloud' }));
    expect(spoken).toEqual(['Antwoord 1']);
    expect(screen.getByRole('button', { name: 'Stop reading aloud' })).toBeTruthy();
  });

  it('when the microphone is blocked, then the error is a plain sentence, not the code', async () => {
    class Recognition {
      lang = '';
      interimResults = false;
      continuous = false;
      onresult = null;
      onend: (() => void) | null = null;
      onerror: ((e: { error: string }) => void) | null = null;
      start() {
        setTimeout(() => {
          this.onerror?.({ error: 'not-allowed' });
          this.onend?.();
        });
      }
      stop() {
        this.onend?.();
      }
    }
    Object.assign(window, { SpeechRecognition: Recognition });
    chatServer();
    renderChat();
    await ready();
    fireEvent.click(screen.getByRole('button', { name: 'Start voice input' }));

    expect(await screen.findByText('Voice input failed')).toBeTruthy();
    expect(
      screen.getByText(
        'Microphone access was blocked. Allow the microphone in your browser settings.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('not-allowed')).toBeNull();
  });
});
