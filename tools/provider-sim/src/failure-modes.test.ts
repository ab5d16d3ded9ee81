import OpenAI from 'openai';
import { realmSafeFetch, startProviderSim, type ProviderSim } from './index';
import { buildClient, collectStream, userMessage } from './testing/sim-test-kit';

let sim: ProviderSim;
let client: OpenAI;

beforeAll(async () => {
  sim = await startProviderSim();
  client = buildClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => sim.control.reset());

const ask = (openai: OpenAI = client) =>
  openai.chat.completions.create({ model: 'gpt-4o', messages: [userMessage('hello')] });

const failureOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

describe('API keys', () => {
  it('when the key contains "invalid", then the SDK gets an AuthenticationError with OpenAI\'s body', async () => {
    const error = await failureOf(ask(buildClient(sim, { apiKey: 'sk-invalid-key-1234' })));

    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      code: 'invalid_api_key',
      type: 'invalid_request_error',
    });
    expect((error as Error).message).toContain('sk-inv***1234');
  });

  it('when the simulator is started with a list of keys, then only those keys are accepted', async () => {
    const strict = await startProviderSim({ validKeys: ['sk-workspace-a'] });
    try {
      await expect(ask(buildClient(strict, { apiKey: 'sk-workspace-a' }))).resolves.toBeDefined();
      await expect(ask(buildClient(strict, { apiKey: 'sk-workspace-b' }))).rejects.toBeInstanceOf(
        OpenAI.AuthenticationError,
      );
    } finally {
      await strict.close();
    }
  });

  it('when no key is sent, then the answer is 401', async () => {
    const response = await fetch(`${sim.url}/models`);

    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});

describe('failure rules', () => {
  it('when invalid_key is set for one request, then that request fails and the next succeeds', async () => {
    sim.control.set({ fail: { mode: 'invalid_key', count: 1 } });

    await expect(ask()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(ask()).resolves.toBeDefined();
  });

  it('when rate_limit is set, then the SDK gets a RateLimitError with the Retry-After header', async () => {
    sim.control.set({ fail: { mode: 'rate_limit', retryAfterSeconds: 7 } });

    const error = await failureOf(ask());

    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe(
      '7',
    );
  });

  it('when one rate limit is set and the SDK may retry, then its retry succeeds', async () => {
    sim.control.set({ fail: { mode: 'rate_limit', count: 1, retryAfterSeconds: 0 } });

    const completion = await ask(buildClient(sim, { maxRetries: 1 }));

    expect(completion.choices[0]?.message.content).toContain('Echo: hello');
    expect(sim.control.requests().map((request) => request.status)).toEqual([429, 200]);
  });

  it('when server_error is set, then the SDK gets an InternalServerError', async () => {
    sim.control.set({ fail: { mode: 'server_error' } });

    const error = await failureOf(ask());

    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(error).toMatchObject({ status: 500, type: 'server_error' });
  });

  it('when insufficient_quota is set, then the SDK gets a RateLimitError with code insufficient_quota', async () => {
    sim.control.set({ fail: { mode: 'insufficient_quota' } });

    await expect(ask()).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
  });

  it('when hang is set, then the SDK times out and the request is recorded as aborted', async () => {
    sim.control.set({ fail: { mode: 'hang' } });

    // realmSafeFetch: under jest, Node's abort error comes from another realm (see its comment).
    const error = await failureOf(ask(buildClient(sim, { timeout: 300, fetch: realmSafeFetch })));

    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const recorded = await sim.control.waitForRequest((request) => request.aborted);
    expect(recorded).toMatchObject({ failure: 'hang', completed: false });
    expect(recorded.status).toBeUndefined();
  });

  it('when the client gives up on a hanging request, then its connection is recorded as closed', async () => {
    sim.control.set({ fail: { mode: 'hang' } });

    await failureOf(ask(buildClient(sim, { timeout: 300, fetch: realmSafeFetch })));

    const closed = await sim.control.waitForRequest(
      (request) => request.failure === 'hang' && !request.connectionOpen,
    );
    expect(closed).toMatchObject({ aborted: true });
  });

  it('when empty_image is set, then the images answer has neither b64_json nor url', async () => {
    sim.control.set({ fail: { mode: 'empty_image', path: '/v1/images' } });

    const answer = await client.images.generate({ model: 'gpt-image-1', prompt: 'x' });

    expect(answer.data?.[0]?.b64_json).toBeUndefined();
    expect(answer.data?.[0]?.url).toBeUndefined();
    await expect(ask()).resolves.toBeDefined();
  });

  it('when truncated_stream is set, then the stream ends in an error without finishing', async () => {
    sim.control.set({ fail: { mode: 'truncated_stream', afterChunks: 4 }, fillerTokens: 50 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [userMessage('hi')],
      stream: true,
    });
    const received: string[] = [];

    const error = await failureOf(
      (async () => {
        for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
      })(),
    );

    // Node's fetch reports the cut body as TypeError('terminated'), made in Node's realm.
    expect(error).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(received).toHaveLength(4);
    const recorded = await sim.control.waitForRequest(
      (request) => request.timings.endedMs !== undefined,
    );
    expect(recorded).toMatchObject({
      failure: 'truncated_stream',
      truncated: true,
      aborted: false,
      completed: false,
    });
  });

  it('when truncated_stream hits a JSON answer, then the SDK call fails', async () => {
    sim.control.set({ fail: { mode: 'truncated_stream' } });

    await expect(ask()).rejects.toMatchObject({ name: 'TypeError', message: 'terminated' });
  });

  it('when a rule names a path, then only requests to that path fail', async () => {
    sim.control.set({ fail: { mode: 'server_error', path: '/images' } });

    await expect(ask()).resolves.toBeDefined();
    await expect(client.images.generate({ model: 'dall-e-3', prompt: 'x' })).rejects.toBeInstanceOf(
      OpenAI.InternalServerError,
    );
  });

  it('when a rule names an API key, then only requests with that key fail', async () => {
    sim.control.set({ fail: { mode: 'rate_limit', apiKey: 'sk-noisy-neighbour' } });

    await expect(ask(buildClient(sim, { apiKey: 'sk-noisy-neighbour' }))).rejects.toBeInstanceOf(
      OpenAI.RateLimitError,
    );
    await expect(ask()).resolves.toBeDefined();
    expect(sim.control.requests({ apiKey: 'sk-noisy-neighbour' })).toHaveLength(1);
  });

  it('when a streamed request is rate limited, then the SDK gets the error before any chunk', async () => {
    sim.control.set({ fail: { mode: 'rate_limit', count: 1 } });

    const error = await failureOf(
      client.chat.completions
        .create({ model: 'gpt-4o', messages: [userMessage('hi')], stream: true })
        .then(collectStream),
    );

    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('when an invalid rule is set, then set() throws and names the key', () => {
    expect(() => sim.control.set({ fail: { mode: 'explode' as never } })).toThrow(/fail/);
  });
});
