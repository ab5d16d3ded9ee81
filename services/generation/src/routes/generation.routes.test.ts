import { randomUUID } from 'node:crypto';
import { GENERATION_STREAM_EVENTS } from '@aict/contracts';
import type { FailRule } from '@aict/provider-sim';
import { PNG } from '../test-support/fixtures';
import {
  parseEvents,
  sleep,
  startHarness,
  waitFor,
  type Harness,
  type Workspace,
} from '../test-support/harness';

let t: Harness;
let ws: Workspace;
let textPrompt: string;
beforeAll(async () => {
  t = await startHarness();
  ws = await t.newWorkspace();
  textPrompt = await t.newPrompt(ws);
}, 90_000);
afterAll(() => t?.stop(), 60_000);

const chatRequests = (w: Workspace) =>
  t.sim.control.requests({ apiKey: w.apiKey, path: '/v1/chat/completions' });

describe('text generation and replies', () => {
  it('when a member runs a text prompt, then the filled template reaches the model and the answer comes back with a content id', async () => {
    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: {
        promptId: textPrompt,
        inputs: { subject: 'bicycles' },
        language: 'nl',
        workspaceId: ws.id,
      },
    });

    expect(res.status).toBe(200);
    expect(res.body.result.text).toContain('Echo: Write about bicycles in nl.');
    expect(res.body.content.id).toEqual(expect.any(String));
    expect(chatRequests(ws).at(-1)?.model).toBe('gpt-4o');
    expect(JSON.stringify(res.body)).not.toContain(ws.apiKey);
  });

  it('when the chat sends a message, then the template is the instruction and the message is what the user asks', async () => {
    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: textPrompt, inputs: { message: 'Hoe laat is het?' }, language: 'nl' },
    });

    expect(res.status).toBe(200);
    const chat = chatRequests(ws).at(-1)?.chat;
    expect(chat?.lastUserText).toBe('Hoe laat is het?');
    expect(chat?.messages[0]).toMatchObject({ role: 'system', text: 'Write about  in nl.' });
  });

  it('when replies follow each other, then each one sends the history plus the new message and names its parent', async () => {
    const first = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: textPrompt, inputs: { message: 'First question' }, language: 'nl' },
    });
    const history = [
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: first.body.result.text },
    ];
    const second = await t.call('POST', '/api/generate-reply', {
      as: ws.user,
      body: {
        message: 'Second question',
        conversationHistory: history,
        promptId: textPrompt,
        workspaceId: ws.id,
        parentContentId: first.body.content.id,
      },
    });

    expect(second.status).toBe(200);
    expect(second.body.result.text).toContain('Echo: Second question');
    const chat = chatRequests(ws).at(-1)!.chat!;
    expect(chat.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(chat.messages[1]?.text).toBe('First question');

    const records = t.generation.deps.mongo!.collection('generations');
    const reply = await records.findOne({ _id: second.body.content.id } as never);
    expect(reply).toMatchObject({
      parentId: first.body.content.id,
      threadId: first.body.content.id,
      metadata: { originalMessage: 'Second question' },
    });
    expect(reply?.usage.completionTokens).toBeGreaterThan(0);
  });

  it('when a generation is saved, then its generation.completed event is published and leaves the record (nothing for the sweep to publish again)', async () => {
    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: textPrompt, inputs: {}, workspaceId: ws.id },
    });
    expect(res.status).toBe(200);

    const records = t.generation.deps.mongo!.collection('generations');
    const outbox = async () =>
      ((await records.findOne({ _id: res.body.content.id } as never)) as { _outbox?: unknown[] })
        ?._outbox;
    await waitFor(async () => (await outbox())?.length === 0, 'the outbox emptied', 5000);
  });

  it('when the prompt is edited between two runs, then each content records the version it ran and what its call cost (the ledger figure); a reply records its thread version', async () => {
    const own = await t.newWorkspace();
    const promptId = await t.newPrompt(own);
    const records = t.generation.deps.mongo!.collection('generations');
    const ledger = t.generation.deps.mongo!.collection('usage_ledger');
    const generate = async () => {
      const res = await t.call('POST', '/api/generate', {
        as: own.user,
        body: { promptId, inputs: { subject: 'tea' }, workspaceId: own.id },
      });
      expect(res.status).toBe(200);
      return (await records.findOne({ _id: res.body.content.id } as never))!;
    };

    const first = await generate();
    const edited = await t.callService('prompt', 'PUT', `/api/prompts/${promptId}`, {
      as: own.admin,
      body: { template: 'Write briefly about {subject}.', workspaceId: own.id },
    });
    expect(edited.status).toBe(200);
    // The prompt kept for generations goes with the prompt.updated event.
    const second = await waitFor(async () => {
      const record = await generate();
      return record.promptVersion === 2 ? record : null;
    }, 'a run of the edited prompt');
    const reply = await t.call('POST', '/api/generate-reply', {
      as: own.user,
      body: {
        message: 'More',
        conversationHistory: [],
        model: 'gpt-4o',
        workspaceId: own.id,
        parentContentId: first._id,
      },
    });
    expect(reply.status).toBe(200);

    expect(first.promptVersion).toBe(1);
    expect(second.promptVersion).toBe(2);
    const replyRecord = await records.findOne({ _id: reply.body.content.id } as never);
    expect(replyRecord?.promptVersion).toBe(1);
    expect(first.costMicros).toBeGreaterThan(0);
    const entry = await waitFor(
      () => ledger.findOne({ _id: first._id, settled: true } as never),
      'the ledger entry settled',
    );
    expect(first.costMicros).toBe(entry.costMicros);
  });

  it('when the parent content belongs to another workspace, then the reply is 404 and nothing reaches the model', async () => {
    const other = await t.newWorkspace();
    const first = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: textPrompt, inputs: { message: 'Mine' } },
    });
    const before = chatRequests(other).length;

    const res = await t.call('POST', '/api/generate-reply', {
      as: other.user,
      body: { message: 'Steal', workspaceId: other.id, parentContentId: first.body.content.id },
    });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('CONTENT.NOT_FOUND');
    expect(chatRequests(other).length).toBe(before);
  });

  it('when the model does not belong to the prompt type, then it is refused', async () => {
    const res = await t.call('POST', '/api/generate', {
      as: ws.admin,
      body: { promptId: textPrompt, model: 'dall-e-3', inputs: {} },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('GENERATION.MODEL_NOT_ALLOWED');
  });

  it('when the prompt does not exist, then 404 PROMPT.NOT_FOUND', async () => {
    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: 'nope-nope', inputs: {} },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('PROMPT.NOT_FOUND');
  });

  it('when no API key is set anywhere, then PROVIDER.KEY_MISSING', async () => {
    const bare = await t.newWorkspace({ apiKey: null });
    const promptId = await t.newPrompt(bare);
    const res = await t.call('POST', '/api/generate', {
      as: bare.user,
      body: { promptId, inputs: {} },
    });
    expect(res.body.code).toBe('PROVIDER.KEY_MISSING');
  });
});

describe('streaming', () => {
  it('when the client asks for a stream, then deltas arrive and a done event carries the answer', async () => {
    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      headers: { accept: 'text/event-stream' },
      body: { promptId: textPrompt, inputs: { message: 'Stream me' } },
    });

    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseEvents(res.text);
    const deltas = events.filter((e) => e.event === GENERATION_STREAM_EVENTS.delta);
    const done = events.at(-1)!;
    expect(deltas.length).toBeGreaterThan(0);
    expect(done.event).toBe('done');
    const text = deltas.map((e) => (e.data as { text: string }).text).join('');
    expect((done.data as { result: { text: string } }).result.text).toBe(text);
  });

  it('when the client stops a stream half-way, then the provider call is aborted and what was produced is saved as stopped', async () => {
    const slow = await t.newWorkspace();
    const promptId = await t.newPrompt(slow);
    t.sim.control.set({ tokensPerSecond: 20, fillerTokens: 200 });
    try {
      const controller = new AbortController();
      const res = await fetch(`${t.generation.http.url}/api/generate`, {
        method: 'POST',
        signal: controller.signal,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'x-aict-context': (await import('@aict/service-kit/testing')).signTestContext(slow.user),
        },
        body: JSON.stringify({ promptId, inputs: { message: 'Long answer please' } }),
      });
      const reader = res.body!.getReader();
      await reader.read();
      await sleep(400);
      controller.abort();

      const aborted = await waitFor(
        () => chatRequests(slow).find((r) => r.aborted),
        'the provider request to be aborted',
      );
      expect(aborted.completed).toBe(false);
      const records = t.generation.deps.mongo!.collection('generations');
      const saved = await waitFor(
        () => records.findOne({ workspaceId: slow.id } as never),
        'the stopped generation to be saved',
      );
      expect(saved.metadata.stopped).toBe(true);
      expect(saved.content).toContain('Echo: Long answer please');
      expect(saved.content.length).toBeLessThan(aborted.output!.text!.length);
    } finally {
      t.sim.control.set({ tokensPerSecond: 0, fillerTokens: 5 });
    }
  });
});

describe('provider failures', () => {
  async function failing(rule: FailRule, headers: Record<string, string> = {}) {
    const w = await t.newWorkspace();
    const promptId = await t.newPrompt(w);
    t.sim.control.set({ fail: [{ ...rule, apiKey: w.apiKey }] });
    try {
      const res = await t.call('POST', '/api/generate', {
        as: w.user,
        headers,
        body: { promptId, inputs: { message: 'hello' } },
      });
      const records = await t.generation.deps
        .mongo!.collection('generations')
        .countDocuments({ workspaceId: w.id } as never);
      return { res, w, records, requests: chatRequests(w) };
    } finally {
      t.sim.control.set({ fail: [] });
    }
  }

  it('when the key is refused, then PROVIDER.INVALID_KEY without a retry and nothing is saved', async () => {
    const { res, records, requests, w } = await failing({ mode: 'invalid_key' });
    expect(res.body.code).toBe('PROVIDER.INVALID_KEY');
    expect(requests).toHaveLength(1);
    expect(records).toBe(0);
    expect(res.text).not.toContain(w.apiKey);
  });

  it('when the provider rate-limits once, then Retry-After is honoured and the retry succeeds', async () => {
    const started = Date.now();
    const { res, requests } = await failing({ mode: 'rate_limit', count: 1, retryAfterSeconds: 1 });
    expect(res.status).toBe(200);
    expect(requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('when the provider keeps rate-limiting, then the retries stop and PROVIDER.RATE_LIMITED says the provider is busy', async () => {
    const { res, requests, records } = await failing({ mode: 'rate_limit', retryAfterSeconds: 0 });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('PROVIDER.RATE_LIMITED');
    expect(res.body.message).toContain('busy');
    expect(requests).toHaveLength(3);
    expect(records).toBe(0);
  });

  it('when the provider account is out of credit, then PROVIDER.QUOTA_EXCEEDED at once, without a retry, and nothing is saved', async () => {
    const { res, requests, records } = await failing({ mode: 'insufficient_quota' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      code: 'PROVIDER.QUOTA_EXCEEDED',
      message:
        'The AI provider account has run out of credit. Ask an administrator to check the plan and billing.',
    });
    expect(res.headers.get('retry-after')).toBeNull();
    expect(requests).toHaveLength(1);
    expect(records).toBe(0);
  });

  it('when the provider fails with a server error, then PROVIDER.UNAVAILABLE', async () => {
    const { res, records } = await failing({ mode: 'server_error' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('PROVIDER.UNAVAILABLE');
    expect(records).toBe(0);
  });

  it('when the provider hangs, then PROVIDER.TIMEOUT and the provider socket is closed', async () => {
    const { res, requests, records, w } = await failing({ mode: 'hang' });
    expect(res.status).toBe(504);
    expect(res.body.code).toBe('PROVIDER.TIMEOUT');
    expect(requests[0]?.aborted).toBe(true);
    expect(records).toBe(0);
    const closed = await waitFor(
      () => chatRequests(w).every((request) => !request.connectionOpen),
      'the provider connection to close',
    );
    expect(closed).toBe(true);
  });

  it('when the provider stream is cut half-way, then PROVIDER.TRUNCATED and nothing is saved', async () => {
    const { res, records } = await failing({ mode: 'truncated_stream', afterChunks: 3 });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('PROVIDER.TRUNCATED');
    expect(records).toBe(0);
  });

  it('when the provider stream is cut half-way while the client streams too, then the stream ends with a 502 error event and nothing partial is saved', async () => {
    const { res, records } = await failing(
      { mode: 'truncated_stream', afterChunks: 4 },
      { accept: 'text/event-stream' },
    );
    const events = parseEvents(res.text);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: {
        status: 502,
        code: 'PROVIDER.TRUNCATED',
        message: 'The AI provider stopped answering half-way, please try again',
      },
    });
    expect(records).toBe(0);
  });

  it('when a streamed generation fails at the provider, then the stream ends with an error event', async () => {
    const { res } = await failing({ mode: 'server_error' }, { accept: 'text/event-stream' });
    const last = parseEvents(res.text).at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({ status: 502, code: 'PROVIDER.UNAVAILABLE' });
  });
});

describe('idempotency', () => {
  it('when the same Idempotency-Key is sent twice, then one generation runs and both get the same answer', async () => {
    const w = await t.newWorkspace();
    const promptId = await t.newPrompt(w);
    const key = randomUUID();
    const send = () =>
      t.call('POST', '/api/generate', {
        as: w.user,
        headers: { 'idempotency-key': key },
        body: { promptId, inputs: { message: 'once' } },
      });
    // Same user for both: the harness signs a fresh context per call with the same uid.
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();

    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    expect(chatRequests(w)).toHaveLength(1);
    const records = await t.generation.deps
      .mongo!.collection('generations')
      .countDocuments({ workspaceId: w.id } as never);
    expect(records).toBe(1);
  });

  it('when the key comes back with another body, then 409 GENERATION.IDEMPOTENCY_CONFLICT', async () => {
    const key = randomUUID();
    await t.call('POST', '/api/generate', {
      as: ws.user,
      headers: { 'idempotency-key': key },
      body: { promptId: textPrompt, inputs: { message: 'one' } },
    });
    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      headers: { 'idempotency-key': key },
      body: { promptId: textPrompt, inputs: { message: 'two' } },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('GENERATION.IDEMPOTENCY_CONFLICT');
  });
});

describe('images', () => {
  it('when a dall-e-3 prompt runs, then the image is downloaded at once and still served after the provider URL expired', async () => {
    const promptId = await t.newPrompt(ws, {
      contentType: 'image',
      model: 'dall-e-3',
      template: 'A poster of {subject}',
    });
    t.sim.control.set({ imageUrlTtlMs: 300 });
    try {
      const res = await t.call('POST', '/api/generate', {
        as: ws.user,
        body: { promptId, inputs: { subject: 'a lighthouse' }, workspaceId: ws.id },
      });
      expect(res.status).toBe(200);
      expect(res.body.result.imageUrl).toBe(
        `/api/images/${res.body.content.id}?workspaceId=${ws.id}`,
      );
      expect(res.body.result.b64_json).toBeUndefined();
      await sleep(500);

      const image = await t.call('GET', res.body.result.imageUrl, { as: ws.user });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.bytes.subarray(1, 4).toString()).toBe('PNG');

      const outsider = await t.newWorkspace();
      const refused = await t.call(
        'GET',
        `/api/images/${res.body.content.id}?workspaceId=${outsider.id}`,
        {
          as: outsider.user,
        },
      );
      expect(refused.status).toBe(404);
    } finally {
      t.sim.control.set({ imageUrlTtlMs: 3_600_000 });
    }
  });

  it('when a gpt-image-1 prompt runs, then the answer has our URL and the base64 data', async () => {
    const promptId = await t.newPrompt(ws, {
      contentType: 'image',
      model: 'gpt-image-1',
      template: 'A logo of {subject}',
    });
    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId, inputs: { subject: 'a fox' } },
    });

    expect(res.status).toBe(200);
    expect(res.body.result.b64_json).toEqual(expect.any(String));
    const image = await t.call('GET', res.body.result.imageUrl, { as: ws.user });
    expect(image.bytes.toString('base64')).toBe(res.body.result.b64_json);
    const record = await t.generation.deps
      .mongo!.collection('generations')
      .findOne({ _id: res.body.content.id } as never);
    expect(record?.usage).toMatchObject({ images: 1 });
  });

  it('when the provider answers an image request without an image, then 502 and nothing is stored', async () => {
    const w = await t.newWorkspace();
    const promptId = await t.newPrompt(w, {
      contentType: 'image',
      model: 'gpt-image-1',
      template: 'A logo of {subject}',
    });
    t.sim.control.set({ fail: [{ mode: 'empty_image', path: '/v1/images', apiKey: w.apiKey }] });
    try {
      const res = await t.call('POST', '/api/generate', {
        as: w.user,
        body: { promptId, inputs: { subject: 'a fox' } },
      });

      expect(res.status).toBe(502);
      expect(res.body).toEqual({
        code: 'PROVIDER.UNAVAILABLE',
        message: 'The AI provider answered without an image',
      });
      const records = await t.generation.deps
        .mongo!.collection('generations')
        .countDocuments({ workspaceId: w.id } as never);
      expect(records).toBe(0);
      const stored = await t.generation.deps.storage!.list(`workspaces/${w.id}/images/`);
      expect(stored).toEqual([]);
    } finally {
      t.sim.control.set({ fail: [] });
    }
  });

  it('when an image is uploaded with generate-with-image, then it reaches images.edit as the reference', async () => {
    const promptId = await t.newPrompt(ws, {
      contentType: 'image',
      model: 'gpt-image-1',
      template: 'A poster of {subject} in the style of {file}',
    });
    const form = new FormData();
    form.append('promptId', promptId);
    form.append('model', 'gpt-image-1');
    form.append('workspaceId', String(ws.id));
    form.append('inputs[subject]', 'a harbour');
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'ref.png');

    const res = await t.call('POST', '/api/generate-with-image', { as: ws.user, form });

    if (res.status !== 200)
      console.log(JSON.stringify(t.sim.control.requests({ apiKey: ws.apiKey }).at(-1)));
    expect(res.status).toBe(200);
    expect(res.body.result.imageUrl).toContain(res.body.content.id);
    const edit = t.sim.control.requests({ apiKey: ws.apiKey, path: '/v1/images/edits' }).at(-1);
    expect(edit?.image?.prompt).toBe('A poster of a harbour in the style of');
    expect(edit?.image?.files[0]).toMatchObject({ detectedFormat: 'png', bytes: PNG.length });
  });

  it('when generate-with-image gets a file that is not an image, then it is refused before the provider', async () => {
    const promptId = await t.newPrompt(ws, { contentType: 'image', model: 'gpt-image-1' });
    const form = new FormData();
    form.append('promptId', promptId);
    form.append('model', 'gpt-image-1');
    form.append('file', new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>']), 'x.png');
    const res = await t.call('POST', '/api/generate-with-image', { as: ws.user, form });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('FILE.INVALID_TYPE');
  });
});
