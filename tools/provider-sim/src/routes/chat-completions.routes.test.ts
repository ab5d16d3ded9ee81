import OpenAI from 'openai';
import { startProviderSim, type ProviderSim } from '../index';
import { buildClient, collectStream, pngDataUrl, userMessage } from '../testing/sim-test-kit';

let sim: ProviderSim;
let client: OpenAI;

beforeAll(async () => {
  sim = await startProviderSim();
  client = buildClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => sim.control.reset());

describe('GET /v1/models', () => {
  it('when the models are listed, then the text and image models offered come back', async () => {
    const page = await client.models.list();

    expect(page.data.map((model) => model.id)).toEqual([
      'gpt-4o',
      'gpt-4-turbo',
      'gpt-3.5-turbo',
      'dall-e-3',
      'gpt-image-1',
    ]);
  });

  it('when one model is retrieved, then it is described; an unknown one is NotFoundError', async () => {
    await expect(client.models.retrieve('gpt-4o')).resolves.toMatchObject({
      id: 'gpt-4o',
      object: 'model',
    });
    await expect(client.models.retrieve('gpt-9')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('POST /v1/chat/completions as JSON', () => {
  it('when a completion is requested, then it echoes the last user message and reports usage', async () => {
    sim.control.set({ fillerTokens: 12 });

    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        userMessage('Earlier question'),
        { role: 'assistant', content: 'Earlier answer' },
        userMessage('Write a slogan for socks'),
      ],
    });

    const content = completion.choices[0]?.message.content ?? '';
    expect(content.startsWith('Echo: Write a slogan for socks\nImages received: 0.')).toBe(true);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.model).toBe('gpt-4o');
    const usage = completion.usage!;
    expect(usage.completion_tokens).toBeGreaterThan(12);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    const [recorded] = sim.control.requests();
    expect(recorded).toMatchObject({
      path: '/v1/chat/completions',
      model: 'gpt-4o',
      stream: false,
      status: 200,
      completed: true,
      aborted: false,
      chat: { lastUserText: 'Write a slogan for socks', imageCount: 0 },
      output: { text: content, completionTokens: usage.completion_tokens },
    });
    expect(recorded?.headers.authorization).toBeUndefined();
    expect(recorded?.apiKeyHint).toMatch(/^sk-tes\*\*\*/);
  });

  it('when text extracted from a document is sent in another message, then the answer includes it', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Attachment invoice.pdf:\nInvoice number 4711, total EUR 99' },
        userMessage('Summarise the attachment'),
      ],
    });

    const content = completion.choices[0]?.message.content ?? '';
    expect(content).toContain('Echo: Summarise the attachment');
    expect(content).toContain('Invoice number 4711, total EUR 99');
  });

  it('when content parts carry a data-URL image and an http image, then both are counted and described', async () => {
    const dataUrl = pngDataUrl('photo', 8);

    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        userMessage('What is in these pictures?', [dataUrl, 'https://images.example.com/cat.jpg']),
      ],
    });

    expect(completion.choices[0]?.message.content).toContain('Images received: 2.');
    const parts = sim.control.requests()[0]?.chat?.messages[0]?.parts;
    expect(parts).toEqual([
      { type: 'text', chars: 'What is in these pictures?'.length },
      {
        type: 'image_url',
        source: 'data',
        mediaType: 'image/png',
        bytes: Buffer.from(dataUrl.split(',')[1]!, 'base64').length,
      },
      { type: 'image_url', source: 'http', url: 'https://images.example.com/cat.jpg' },
    ]);
  });

  it('when a data URL declared as an image holds a PDF, then the SDK gets a BadRequestError', async () => {
    const pdf = `data:image/png;base64,${Buffer.from('%PDF-1.7 not an image').toString('base64')}`;

    const error = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [userMessage('look', [pdf])] })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_image_format' });
  });

  it('when max_tokens is below the answer length, then the answer is cut with finish_reason length', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      max_tokens: 3,
      messages: [userMessage('one two three four five')],
    });

    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.usage?.completion_tokens).toBe(3);
  });

  it('when the model is not a chat model, then the SDK gets a NotFoundError', async () => {
    const error = await client.chat.completions
      .create({ model: 'dall-e-3', messages: [userMessage('hi')] })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ code: 'model_not_found' });
  });
});

describe('POST /v1/chat/completions with stream: true', () => {
  it('when a completion is streamed, then the chunks assemble the same text as the JSON answer and usage comes last', async () => {
    sim.control.set({ fillerTokens: 40 });
    const messages = [userMessage('Stream me a story')];
    const whole = await client.chat.completions.create({ model: 'gpt-4o', messages });

    const streamed = await collectStream(
      await client.chat.completions.create({
        model: 'gpt-4o',
        messages,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );

    expect(streamed.text).toBe(whole.choices[0]?.message.content);
    expect(streamed.finishReason).toBe('stop');
    expect(streamed.chunks.length).toBeGreaterThan(40);
    expect(streamed.chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const last = streamed.chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual(whole.usage);
    expect(sim.control.requests()[1]).toMatchObject({
      stream: true,
      completed: true,
      aborted: false,
    });
  });

  it('when chunkSize is 5, then each content chunk carries up to five tokens', async () => {
    sim.control.set({ fillerTokens: 20, chunkSize: 5 });

    const streamed = await collectStream(
      await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [userMessage('hi')],
        stream: true,
      }),
    );

    const tokens = sim.control.requests()[0]!.output!.completionTokens!;
    const contentChunks = streamed.chunks.filter((chunk) => chunk.choices[0]?.delta.content);
    expect(contentChunks).toHaveLength(Math.ceil(tokens / 5));
  });

  it('when a time to first token is set, then the headers arrive before the first token', async () => {
    sim.control.set({ timeToFirstTokenMs: 500, fillerTokens: 5 });

    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [userMessage('hi')],
      stream: true,
    });
    const atHeaders = sim.control.requests()[0]!;
    const streamed = await collectStream(stream);
    const atEnd = sim.control.requests()[0]!;

    expect(atHeaders.timings.headersSentMs).toBeDefined();
    expect(atHeaders.timings.firstTokenMs).toBeUndefined();
    expect(streamed.text).toContain('Echo: hi');
    expect(atEnd.timings.firstTokenMs).toBeGreaterThan(atEnd.timings.headersSentMs!);
  });

  it('when the SDK stream helper is used, then it assembles a final completion', async () => {
    const final = await client.chat.completions
      .stream({ model: 'gpt-4o', messages: [userMessage('helper')] })
      .finalChatCompletion();

    expect(final.choices[0]?.message.content).toContain('Echo: helper');
  });

  it('when the client aborts mid-stream, then the request is recorded as aborted and the stream stops', async () => {
    sim.control.set({ tokensPerSecond: 100, fillerTokens: 1000 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [userMessage('long')],
      stream: true,
    });

    let received = 0;
    for await (const _chunk of stream) {
      received += 1;
      if (received === 3) break; // the SDK aborts the request when iteration stops early
    }

    const recorded = await sim.control.waitForRequest((request) => request.aborted);
    expect(recorded).toMatchObject({
      path: '/v1/chat/completions',
      completed: false,
      truncated: false,
    });
    expect(recorded.output!.chunksSent!).toBeLessThan(recorded.output!.completionTokens!);
  });

  it('when 200 streams run at once, then every one completes', async () => {
    sim.control.set({ fillerTokens: 50, chunkSize: 2 });

    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) =>
        collectStream(
          await client.chat.completions.create({
            model: 'gpt-4o',
            messages: [userMessage(`stream ${i}`)],
            stream: true,
          }),
        ),
      ),
    );

    results.forEach((result, i) =>
      expect(result.text.startsWith(`Echo: stream ${i}\n`)).toBe(true),
    );
    expect(sim.control.requests().filter((request) => request.completed)).toHaveLength(200);
  }, 30_000); // 200 concurrent streams: give a loaded 2-core machine time
});
