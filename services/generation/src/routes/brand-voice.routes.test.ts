import { brandVoiceInstruction, type BrandVoice } from '@aict/contracts';
import { startHarness, waitFor, type Harness, type Workspace } from '../test-support/harness';

jest.setTimeout(60_000);

let t: Harness;
beforeAll(async () => {
  t = await startHarness();
}, 90_000);
afterAll(() => t?.stop(), 60_000);

const buildVoice = (overrides: Partial<BrandVoice> = {}): BrandVoice => ({
  tone: 'Warm and direct',
  avoidWords: ['synergy', 'game changer'],
  useWords: ['together'],
  example: 'We do it together.',
  ...overrides,
});

async function setVoice(ws: Workspace, voice: BrandVoice) {
  const res = await t.callService('workspace', 'PUT', `/api/workspaces/${ws.id}/brand-voice`, {
    as: ws.admin,
    body: voice,
  });
  expect(res.status).toBe(200);
}

const lastChat = (ws: Workspace) =>
  t.sim.control.requests({ apiKey: ws.apiKey, path: '/v1/chat/completions' }).at(-1)?.chat;

const generations = () => t.generation.deps.mongo!.collection('generations');

describe('brand voice in text generation and chat', () => {
  it('when a workspace has a brand voice, then a text generation sends it to the provider as the first system message', async () => {
    const ws = await t.newWorkspace();
    const prompt = await t.newPrompt(ws);
    await setVoice(ws, buildVoice());

    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: prompt, inputs: { subject: 'bicycles' }, workspaceId: ws.id },
    });

    expect(res.status).toBe(200);
    const chat = lastChat(ws)!;
    expect(chat.messages[0]).toMatchObject({
      role: 'system',
      text: brandVoiceInstruction(buildVoice()),
    });
    expect(chat.messages[0]?.text).toContain('Never use these words: synergy, game changer');
    expect(chat.lastUserText).toBe('Write about bicycles in en.');
  });

  it('when a chat goes on with a reply, then the brand voice comes first, before the prompt instruction and the history', async () => {
    const ws = await t.newWorkspace();
    const prompt = await t.newPrompt(ws);
    await setVoice(ws, buildVoice());
    const first = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: prompt, inputs: { message: 'Hello' }, workspaceId: ws.id },
    });

    const reply = await t.call('POST', '/api/generate-reply', {
      as: ws.user,
      body: {
        message: 'And then?',
        conversationHistory: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: first.body.result.text },
        ],
        workspaceId: ws.id,
        parentContentId: first.body.content.id,
      },
    });

    expect(reply.status).toBe(200);
    const chat = lastChat(ws)!;
    expect(chat.messages.map((m) => m.role)).toEqual([
      'system',
      'system',
      'user',
      'assistant',
      'user',
    ]);
    expect(chat.messages[0]?.text).toBe(brandVoiceInstruction(buildVoice()));
    expect(chat.messages[1]?.text).toBe('Write about  in en.');
  });

  it('when a workspace has no brand voice, then no brand voice instruction is sent', async () => {
    const ws = await t.newWorkspace();
    const prompt = await t.newPrompt(ws);

    await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: prompt, inputs: { subject: 'boats' }, workspaceId: ws.id },
    });

    const chat = lastChat(ws)!;
    expect(chat.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('when the brand voice changes after a generation, then the next generations use the new one (the cached configuration is dropped)', async () => {
    const ws = await t.newWorkspace();
    const prompt = await t.newPrompt(ws);
    await setVoice(ws, buildVoice({ tone: 'Old tone' }));
    await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: prompt, inputs: { subject: 'x' }, workspaceId: ws.id },
    });

    await setVoice(ws, buildVoice({ tone: 'New tone' }));

    await waitFor(async () => {
      await t.call('POST', '/api/generate', {
        as: ws.user,
        body: { promptId: prompt, inputs: { subject: 'x' }, workspaceId: ws.id },
      });
      return lastChat(ws)?.messages[0]?.text.includes('Tone: New tone');
    }, 'the new brand voice to reach the provider');
  });

  it('when the generated text holds words to avoid, then the content handed over is flagged with them', async () => {
    const ws = await t.newWorkspace();
    const prompt = await t.newPrompt(ws);
    await setVoice(ws, buildVoice({ avoidWords: ['synergy', 'game changer', 'paradigm'] }));

    // The simulator echoes the user's message (and repeats its context: the brand voice too).
    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: {
        promptId: prompt,
        inputs: { message: 'Say Synergy, GAME CHANGER' },
        workspaceId: ws.id,
      },
    });

    expect(res.body.result.text).toContain('Say Synergy, GAME CHANGER');
    const record = await generations().findOne({ _id: res.body.content.id } as never);
    expect(record?.voiceFlags).toEqual(['synergy', 'game changer', 'paradigm']);
  });

  it('when a workspace has no brand voice, then nothing is flagged', async () => {
    const ws = await t.newWorkspace();
    const prompt = await t.newPrompt(ws);

    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: prompt, inputs: { message: 'Say synergy' }, workspaceId: ws.id },
    });

    const record = await generations().findOne({ _id: res.body.content.id } as never);
    expect(record?.voiceFlags).toBeUndefined();
  });
});
