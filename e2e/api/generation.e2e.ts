import {
  GENERATION_STREAM_EVENTS,
  GPT_IMAGE_MODEL,
  IMAGE_MODELS,
  type ContentItem,
  type GenerateResponse,
  type StatsResponse,
} from '@aict/contracts';
import { stack } from '../support/browser';
import { allContents, chatWorkspace, signIn, type ApiClient } from '../support/api';
import { superAdmin, uniqueName } from '../support/session';

// Generation and content through the gateway, as the front-ends use them (SPEC §4, §7
// "Generation and content"): a chat thread and its conversation, a streamed answer, images of
// both models served by our own URL, the stats counts, search and deletion.

jest.setTimeout(120_000);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function simulator(config: Record<string, unknown>) {
  const res = await fetch(`${stack().simulatorUrl}/__sim/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  if (!res.ok) throw new Error(`simulator config: ${res.status} ${await res.text()}`);
}

/** The events of a `text/event-stream` body, in order. */
function parseEvents(body: string): Array<{ event: string; data: unknown }> {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      return { event, data: data.length ? JSON.parse(data.join('\n')) : null };
    })
    .filter((e) => e.data !== null);
}

describe('generation and contents, through the gateway', () => {
  const baseUrl = stack().url;
  let sa: ApiClient;
  let ws: { workspaceId: number; promptId: string };

  const generate = (message: string) =>
    sa.ok<GenerateResponse>('POST', '/api/generate', {
      body: {
        promptId: ws.promptId,
        inputs: { message },
        language: 'nl',
        workspaceId: ws.workspaceId,
      },
      workspaceId: ws.workspaceId,
    });

  const stats = () =>
    sa.ok<StatsResponse>('GET', `/api/stats?workspaceId=${ws.workspaceId}`, {
      workspaceId: ws.workspaceId,
    });

  const search = async (q: string) =>
    (
      await sa.ok<{ items: ContentItem[] }>(
        'GET',
        `/api/contents?workspaceId=${ws.workspaceId}&q=${encodeURIComponent(q)}`,
        { workspaceId: ws.workspaceId },
      )
    ).items.map((item) => item.id);

  const imagePrompt = (model: string) =>
    sa.ok<{ id: string }>('POST', '/api/prompts', {
      body: {
        name: `Drawing with ${model}`,
        template: 'Draw {subject}',
        category: 'Marketing',
        contentType: 'image',
        model,
        isPublic: false,
        isDefault: false,
        workspaceId: ws.workspaceId,
      },
      workspaceId: ws.workspaceId,
    });

  const generateImage = (promptId: string) =>
    sa.ok<GenerateResponse>('POST', '/api/generate', {
      body: { promptId, inputs: { subject: 'a red lighthouse' }, workspaceId: ws.workspaceId },
      workspaceId: ws.workspaceId,
    });

  beforeAll(async () => {
    sa = await signIn(baseUrl, superAdmin().username, superAdmin().password);
    ws = await chatWorkspace(sa, uniqueName('Generation API '));
  });

  afterEach(() => simulator({ tokensPerSecond: 0 }));

  it('when a first message is followed by three replies, then the conversation of the last holds the four, in order, with the messages to rebuild it', async () => {
    const tag = uniqueName('thread');
    const first = await generate(`${tag} first question`);
    const texts = [first.result.text!];
    const ids = [first.content.id];
    const history = [
      { role: 'user', content: `${tag} first question` },
      { role: 'assistant', content: first.result.text! },
    ];
    const replies = [`${tag} reply one`, `${tag} reply two`, `${tag} reply three`];
    for (const message of replies) {
      const reply = await sa.ok<{ result: { text: string }; content: { id: string } }>(
        'POST',
        '/api/generate-reply',
        {
          body: {
            message,
            conversationHistory: history,
            model: 'gpt-4o',
            promptId: ws.promptId,
            workspaceId: ws.workspaceId,
            parentContentId: ids[ids.length - 1],
          },
          workspaceId: ws.workspaceId,
        },
      );
      history.push(
        { role: 'user', content: message },
        { role: 'assistant', content: reply.result.text },
      );
      texts.push(reply.result.text);
      ids.push(reply.content.id);
    }

    const conversation = await sa.ok<ContentItem[]>('GET', `/api/contents/${ids[3]}/conversation`, {
      workspaceId: ws.workspaceId,
    });

    expect(conversation.map((item) => item.id)).toEqual(ids);
    expect(conversation.map((item) => item.content)).toEqual(texts);
    // SPEC §4: the first user message from metadata.inputs.message, later ones from originalMessage
    const metadata = conversation.map((item) =>
      typeof item.metadata === 'string' ? JSON.parse(item.metadata) : item.metadata,
    ) as Array<{ inputs?: { message?: string }; originalMessage?: string }>;
    expect(metadata[0]!.inputs?.message).toBe(`${tag} first question`);
    expect(metadata.slice(1).map((m) => m.originalMessage)).toEqual(replies);
    // the same thread from its first content
    const fromFirst = await sa.ok<ContentItem[]>('GET', `/api/contents/${ids[0]}/conversation`, {
      workspaceId: ws.workspaceId,
    });
    expect(fromFirst.map((item) => item.id)).toEqual(ids);
  });

  it('when the answer is streamed, then several deltas come, then done with the content id, and the content is readable at once', async () => {
    await simulator({ tokensPerSecond: 150, fillerTokens: 40 });
    const message = uniqueName('streamed');
    const res = await sa.raw('/api/generate', {
      method: 'POST',
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        'x-workspace-id': String(ws.workspaceId),
      },
      body: JSON.stringify({
        promptId: ws.promptId,
        inputs: { message },
        language: 'nl',
        workspaceId: ws.workspaceId,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseEvents(await res.text());

    const deltas = events.filter((e) => e.event === GENERATION_STREAM_EVENTS.delta);
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(events.map((e) => e.event).slice(-1)).toEqual([GENERATION_STREAM_EVENTS.done]);
    expect(events.filter((e) => e.event !== GENERATION_STREAM_EVENTS.delta)).toHaveLength(1);
    const done = events.at(-1)!.data as GenerateResponse;
    const streamed = deltas.map((e) => (e.data as { text: string }).text).join('');
    expect(streamed).toBe(done.result.text);

    const content = await sa.call<ContentItem>('GET', `/api/contents/${done.content.id}`, {
      workspaceId: ws.workspaceId,
    });
    expect(content.status).toBe(200);
    expect(content.body.content).toBe(done.result.text);
    expect(content.body.title).toContain(message);
  });

  it.each(IMAGE_MODELS.map((model) => [model]))(
    'when an image is generated with %s, then its imageUrl serves the PNG to the workspace',
    async (model) => {
      const prompt = await imagePrompt(model);
      const answer = await generateImage(prompt.id);

      expect(answer.result.imageUrl).toMatch(/^\/api\/images\//);
      if (model === GPT_IMAGE_MODEL) expect(answer.result.b64_json).toEqual(expect.any(String));
      const image = await sa.raw(answer.result.imageUrl!);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\/png/);
      const bytes = Buffer.from(await image.arrayBuffer());
      expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      const content = await sa.ok<ContentItem>('GET', `/api/contents/${answer.content.id}`, {
        workspaceId: ws.workspaceId,
      });
      expect(content).toMatchObject({
        contentType: 'image',
        model,
        content: answer.result.imageUrl,
      });
    },
  );

  it('when a text and then an image are generated, then each count of the stats moves by one', async () => {
    const prompt = await imagePrompt('dall-e-3');
    const before = await stats();

    await generate(uniqueName('counted'));
    const afterText = await stats();
    await generateImage(prompt.id);
    const afterImage = await stats();

    // Each new content is a draft (review states).
    const drafts = (stats: typeof before, n: number) => ({
      ...stats.reviews,
      draft: before.reviews.draft + n,
    });
    expect(afterText).toEqual({
      ...before,
      textContent: before.textContent + 1,
      reviews: drafts(before, 1),
    });
    expect(afterImage).toEqual({
      ...afterText,
      imagesGenerated: before.imagesGenerated + 1,
      reviews: drafts(afterText, 2),
    });
  });

  it('when the history is searched, then a unique word finds its text and regex characters are plain characters', async () => {
    const word = uniqueName('quokka');
    const found = await generate(`Tell me about the ${word}`);
    const literal = await generate(`${uniqueName('lit')} version a.b* of the plan`);
    await generate(`${uniqueName('other')} abbb and aXb and a-b`);

    expect(await search(word)).toEqual([found.content.id]);
    expect(await search(word.toUpperCase())).toEqual([found.content.id]);
    expect(await search('a.b*')).toEqual([literal.content.id]);
  });

  it('when a content is deleted, then it leaves the history, the search and the stats', async () => {
    const word = uniqueName('ephemeral');
    const created = await generate(`About ${word}`);
    const before = await stats();
    expect((await allContents(sa, ws.workspaceId)).map((item) => item.id)).toContain(
      created.content.id,
    );

    const removed = await sa.call('DELETE', `/api/contents/${created.content.id}`, {
      workspaceId: ws.workspaceId,
    });

    expect(removed.status).toBe(204);
    expect((await allContents(sa, ws.workspaceId)).map((item) => item.id)).not.toContain(
      created.content.id,
    );
    expect(await search(word)).toEqual([]);
    expect(await stats()).toEqual({
      ...before,
      textContent: before.textContent - 1,
      reviews: { ...before.reviews, draft: before.reviews.draft - 1 },
    });
    const gone = await sa.call('GET', `/api/contents/${created.content.id}`, {
      workspaceId: ws.workspaceId,
    });
    expect(gone.status).toBe(404);
  });
});
