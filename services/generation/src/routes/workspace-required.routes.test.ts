import { randomBytes, randomUUID } from 'node:crypto';
import { FIELD_LIMITS } from '@aict/contracts';
import { formWith, PNG } from '../test-support/fixtures';
import { startHarness, type Caller, type Harness, type Workspace } from '../test-support/harness';

// Hardening issue, item 2: the operator's global key pays only for calls made in a workspace
// the caller belongs to, never for a call without one.

let t: Harness;
let ws: Workspace;
let publicPrompt: string;
let publicImagePrompt: string;
let globalKey: string;
const superAdmin = (): Caller => ({ uid: `sa-${randomUUID()}`, sa: true, roles: {}, ws: null });
/** A prompt the super admin publishes to every workspace (it lives in `ws`). */
async function publish(overrides: Record<string, unknown>): Promise<string> {
  const created = await t.callService('prompt', 'POST', '/api/prompts', {
    as: superAdmin(),
    body: {
      name: 'Published everywhere',
      category: 'Marketing',
      contentType: 'text',
      model: 'gpt-4o',
      isPublic: true,
      isDefault: false,
      workspaceId: ws.id,
      ...overrides,
    },
  });
  if (created.status !== 201) throw new Error(`prompt: ${created.status} ${created.text}`);
  return created.body.id as string;
}
/** Registered, but in no workspace. */
const loner = (): Caller => ({ uid: `u-${randomUUID()}`, sa: false, roles: {}, ws: null });

beforeAll(async () => {
  t = await startHarness();
  globalKey = `sk-global-${randomBytes(6).toString('hex')}`;
  const saved = await t.callService('workspace', 'PUT', '/api/settings/openai_api_key', {
    as: superAdmin(),
    body: { value: globalKey },
  });
  if (saved.status !== 200) throw new Error(`global key: ${saved.status} ${saved.text}`);
  // A workspace without a key of its own: its calls fall back to the global key.
  ws = await t.newWorkspace({ apiKey: null });
  publicPrompt = await publish({ template: 'Write about {subject}.' });
  publicImagePrompt = await publish({
    template: 'A poster of {file}',
    contentType: 'image',
    model: 'gpt-image-1',
  });
}, 90_000);
afterAll(() => t?.stop(), 60_000);

const globalKeyCalls = () => t.sim.control.requests({ apiKey: globalKey }).length;

describe('a provider call needs a workspace the caller belongs to', () => {
  it.each([
    ['workspaceId: null', { workspaceId: null }],
    ['no workspaceId', {}],
  ])(
    'when a user in no workspace generates from a public prompt with %s, then 400 and the provider gets no request',
    async (_what, workspace) => {
      const before = globalKeyCalls();

      const res = await t.call('POST', '/api/generate', {
        as: loner(),
        body: { promptId: publicPrompt, inputs: { subject: 'free tokens' }, ...workspace },
      });

      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION.FAILED',
        message: 'Select a workspace before generating content.',
      });
      expect(globalKeyCalls()).toBe(before);
    },
  );

  it('when a user in no workspace sends a reply without a workspace, then 400 and the provider gets no request', async () => {
    const before = globalKeyCalls();

    const res = await t.call('POST', '/api/generate-reply', {
      as: loner(),
      body: { message: 'Hello?', conversationHistory: [], workspaceId: null },
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Select a workspace before generating content.');
    expect(globalKeyCalls()).toBe(before);
  });

  it('when a user in no workspace generates with an image without a workspace, then 400 and the provider gets no request', async () => {
    const before = globalKeyCalls();
    const form = new FormData();
    form.append('promptId', publicImagePrompt);
    form.append('model', 'gpt-image-1');
    form.append('workspaceId', '');
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'ref.png');

    const res = await t.call('POST', '/api/generate-with-image', { as: loner(), form });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Select a workspace before generating content.');
    expect(globalKeyCalls()).toBe(before);
  });

  it('when a user in no workspace uploads chat attachments, then 400 and nothing is stored', async () => {
    const attachments = t.generation.deps.mongo!.collection('attachments');
    const before = await attachments.countDocuments();

    const res = await t.call('POST', '/api/uploads/chat-attachments', {
      as: loner(),
      form: formWith([{ bytes: Buffer.from('hello'), name: 'a.txt', type: 'text/plain' }]),
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Select a workspace before uploading files.');
    expect(await attachments.countDocuments()).toBe(before);
  });

  it('when a user names a workspace they do not belong to, then 404 WORKSPACE.NOT_FOUND and the provider gets no request', async () => {
    const before = globalKeyCalls();

    const res = await t.call('POST', '/api/generate', {
      as: loner(),
      body: { promptId: publicPrompt, inputs: {}, workspaceId: ws.id },
    });

    expect(res.status).toBe(404);
    expect(res.body.code).toBe('WORKSPACE.NOT_FOUND');
    expect(globalKeyCalls()).toBe(before);
  });

  it('when a member of a workspace without its own key generates, then the global key answers', async () => {
    const before = globalKeyCalls();

    const res = await t.call('POST', '/api/generate', {
      as: ws.user,
      body: { promptId: publicPrompt, inputs: { subject: 'bicycles' }, workspaceId: ws.id },
    });

    expect(res.status).toBe(200);
    expect(globalKeyCalls()).toBe(before + 1);
  });
});

describe('the history of a reply is bounded', () => {
  it('when a reply carries a 1 MB history, then 400 says the conversation is too long and the provider gets no request', async () => {
    const before = globalKeyCalls();
    const history = Array.from({ length: 50 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: 'x'.repeat(20_000),
    }));

    const res = await t.call('POST', '/api/generate-reply', {
      as: ws.user,
      body: { message: 'And now?', conversationHistory: history, workspaceId: ws.id },
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `The conversation is too long: at most ${FIELD_LIMITS.conversationChars} characters of history can be sent. Please start a new chat.`,
    );
    expect(globalKeyCalls()).toBe(before);
  });

  it('when one message of the history is longer than a message may be, then 400 and the provider gets no request', async () => {
    const before = globalKeyCalls();

    const res = await t.call('POST', '/api/generate-reply', {
      as: ws.user,
      body: {
        message: 'And now?',
        conversationHistory: [{ role: 'user', content: 'y'.repeat(FIELD_LIMITS.message + 1) }],
        workspaceId: ws.id,
      },
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `Each message of the conversation must be at most ${FIELD_LIMITS.message} characters.`,
    );
    expect(globalKeyCalls()).toBe(before);
  });

  it('when a reply carries a history within the bounds, then it reaches the model', async () => {
    const res = await t.call('POST', '/api/generate-reply', {
      as: ws.user,
      body: {
        message: 'And now?',
        conversationHistory: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
        workspaceId: ws.id,
      },
    });

    expect(res.status).toBe(200);
  });
});
