import * as contracts from '@aict/contracts';
import { ApiError, errorMessage } from '../api/http';
import { IDEMPOTENCY_HEADER, STREAM_EVENTS, generateText } from './generate-text';

// Node's own fetch types (Response, ReadableStream) stand in for the browser's; fetch is stubbed.

const encoder = new TextEncoder();

/** A text/event-stream response sending `chunks` one by one. */
function streamed(chunks: string[], status = 200): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status, headers: { 'content-type': 'text/event-stream' } });
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const done = { result: { text: 'Hallo wereld' }, content: { id: 'c1' } };

let requests: { url: string; init: RequestInit }[];
function stubFetch(respond: (init: RequestInit) => Response | Promise<Response>) {
  requests = [];
  globalThis.fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(url), init: init ?? {} });
    return respond(init ?? {});
  }) as unknown as typeof fetch;
}

const scope = globalThis as unknown as { window?: unknown };
afterEach(() => {
  delete scope.window;
});

describe('generateText', () => {
  it('when the answer streams, then each delta is reported with the text so far and the done body resolves', async () => {
    stubFetch(() =>
      streamed([
        ': keep-alive\n\n',
        event('delta', { text: 'Hal' }),
        'event: delta\ndata: {"text":"lo "}\r\n\r\nevent: del',
        'ta\ndata: {"text":"wereld"}\n\n',
        event('done', done),
      ]),
    );
    const seen: Array<[string, string]> = [];
    const result = await generateText(
      '/api/generate',
      { promptId: 'p1' },
      { onDelta: (delta, full) => seen.push([delta, full]) },
    );
    expect(seen).toEqual([
      ['Hal', 'Hal'],
      ['lo ', 'Hallo '],
      ['wereld', 'Hallo wereld'],
    ]);
    expect(result).toEqual(done);
  });

  it('when called, then it POSTs JSON asking for a stream, with the workspace header and the idempotency key', async () => {
    scope.window = {
      localStorage: { getItem: (key: string) => (key === 'currentWorkspaceId' ? '7' : null) },
    };
    stubFetch(() => streamed([event('done', done)]));
    await generateText('/api/generate-reply', { message: 'hoi' }, { idempotencyKey: 'k-1' });
    const { url, init } = requests[0]!;
    expect(url).toBe('/api/generate-reply');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(JSON.parse(String(init.body))).toEqual({ message: 'hoi' });
    expect(init.headers).toMatchObject({
      Accept: 'text/event-stream',
      'Content-Type': 'application/json',
      'x-workspace-id': '7',
      'idempotency-key': 'k-1',
    });
  });

  it('when the server answers JSON instead of a stream, then that body resolves', async () => {
    stubFetch(() => Response.json(done));
    await expect(generateText('/api/generate', {})).resolves.toEqual(done);
  });

  it('when the request is refused, then it rejects with ApiError "{status}: {body}" and the server message', async () => {
    const body = JSON.stringify({ code: 'PROMPT.NOT_FOUND', message: 'Prompt not found' });
    stubFetch(() => new Response(body, { status: 404, statusText: 'Not Found' }));
    const error = await generateText('/api/generate', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`404: ${body}`);
    expect(errorMessage(error)).toBe('Prompt not found');
  });

  it('when the stream ends with an error event, then it rejects with that status and message', async () => {
    stubFetch(() =>
      streamed([
        event('delta', { text: 'Half' }),
        event('error', {
          status: 502,
          code: 'PROVIDER.UNAVAILABLE',
          message: 'The AI provider is unavailable',
        }),
      ]),
    );
    const error = await generateText('/api/generate', {}).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(502);
    expect((error as ApiError).message).toMatch(/^502: /);
    expect(errorMessage(error)).toBe('The AI provider is unavailable');
  });

  it('when the stream stops without a done event, then it rejects instead of hanging', async () => {
    stubFetch(() => streamed([event('delta', { text: 'Half' })]));
    await expect(generateText('/api/generate', {})).rejects.toBeInstanceOf(ApiError);
  });

  it('when the signal is aborted mid-stream, then it rejects with an AbortError and no later delta arrives', async () => {
    const controller = new AbortController();
    stubFetch(
      (init) =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(stream) {
              stream.enqueue(encoder.encode(event('delta', { text: 'Een' })));
              init.signal?.addEventListener('abort', () => stream.error(init.signal?.reason));
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    );
    const deltas: string[] = [];
    const pending = generateText(
      '/api/generate',
      {},
      {
        signal: controller.signal,
        onDelta: (delta) => {
          deltas.push(delta);
          controller.abort();
        },
      },
    );
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(deltas).toEqual(['Een']);
    expect(requests[0]!.init.signal).toBe(controller.signal);
  });

  it('when compared with @aict/contracts, then the copied event names and header agree', () => {
    expect(STREAM_EVENTS).toEqual(contracts.GENERATION_STREAM_EVENTS);
    expect(IDEMPOTENCY_HEADER).toBe(contracts.IDEMPOTENCY_KEY_HEADER);
  });
});
