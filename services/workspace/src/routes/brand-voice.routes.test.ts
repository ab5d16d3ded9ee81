import {
  BRAND_VOICE_LIMITS,
  BrandVoiceResponse,
  PROVIDER_CONFIG_RPC,
  ProviderConfig,
  type Workspace,
} from '@aict/contracts';
import {
  member,
  startHarness,
  superAdmin,
  uniqueName,
  type Harness,
} from '../test-support/harness';

jest.setTimeout(30_000);

const sa = superAdmin();
let t: Harness;

beforeAll(async () => {
  t = await startHarness();
});
afterAll(() => t.stop());

async function createWorkspace(): Promise<Workspace> {
  const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name: uniqueName() } });
  expect(res.status).toBe(201);
  return res.body;
}

const buildVoice = (overrides: Record<string, unknown> = {}) => ({
  tone: 'Warm, direct, no jargon',
  avoidWords: ['synergy', 'leverage'],
  useWords: ['together'],
  example: 'We build it together, so you can get on with your day.',
  ...overrides,
});

const path = (id: number) => `/api/workspaces/${id}/brand-voice`;

describe('brand voice', () => {
  it('when a workspace admin writes it, then members read it and the provider configuration carries it', async () => {
    const ws = await createWorkspace();

    const put = await t.call('PUT', path(ws.id), {
      as: member({ [ws.id]: 'admin' }),
      body: buildVoice({ avoidWords: [' synergy ', 'Synergy', 'leverage'] }),
    });
    const get = await t.call('GET', path(ws.id), { as: member({ [ws.id]: 'user' }) });
    const config = ProviderConfig.parse(
      await t.authBus.request(PROVIDER_CONFIG_RPC, { workspaceId: ws.id }),
    );

    expect(put.status).toBe(200);
    expect(BrandVoiceResponse.parse(get.body)).toMatchObject({
      workspaceId: ws.id,
      ...buildVoice(),
    });
    expect(get.body.updatedAt).not.toBeNull();
    expect(config.brandVoice).toEqual(buildVoice());
  });

  it('when it is written, then settings.changed is published for the workspace', async () => {
    const ws = await createWorkspace();

    await t.call('PUT', path(ws.id), { as: sa, body: buildVoice() });

    const event = await t.waitForEvent(
      (e) =>
        e.type === 'settings.changed' && (e.data as { workspaceId: number }).workspaceId === ws.id,
    );
    expect(event.data).toEqual({ workspaceId: ws.id, key: 'brand_voice' });
  });

  it('when every field is emptied, then the workspace has no brand voice any more', async () => {
    const ws = await createWorkspace();
    await t.call('PUT', path(ws.id), { as: sa, body: buildVoice() });

    const put = await t.call('PUT', path(ws.id), {
      as: sa,
      body: { tone: ' ', avoidWords: [], useWords: [], example: '' },
    });
    const get = await t.call('GET', path(ws.id), { as: sa });
    const config = ProviderConfig.parse(
      await t.authBus.request(PROVIDER_CONFIG_RPC, { workspaceId: ws.id }),
    );

    expect(put.status).toBe(200);
    expect(get.body).toEqual({
      workspaceId: ws.id,
      tone: '',
      avoidWords: [],
      useWords: [],
      example: '',
      updatedAt: null,
    });
    expect(config.brandVoice).toBeNull();
  });

  it('when a member who is not an admin writes it, then 403 and nothing changes', async () => {
    const ws = await createWorkspace();

    const put = await t.call('PUT', path(ws.id), {
      as: member({ [ws.id]: 'user' }),
      body: buildVoice(),
    });
    const get = await t.call('GET', path(ws.id), { as: sa });

    expect(put.status).toBe(403);
    expect(get.body.tone).toBe('');
  });

  it('when someone outside the workspace reads it, then 404', async () => {
    const ws = await createWorkspace();
    await t.call('PUT', path(ws.id), { as: sa, body: buildVoice() });

    const get = await t.call('GET', path(ws.id), { as: member({ [ws.id + 100_000]: 'admin' }) });

    expect(get.status).toBe(404);
  });

  it.each([
    ['tone', { tone: 'x'.repeat(BRAND_VOICE_LIMITS.tone + 1) }, 'Tone must be at most 500'],
    ['example', { example: 'x'.repeat(BRAND_VOICE_LIMITS.example + 1) }, 'Example must be at most'],
    [
      'too many words',
      { avoidWords: Array.from({ length: BRAND_VOICE_LIMITS.words + 1 }, (_, i) => `w${i}`) },
      'Words to avoid can hold at most 50 entries',
    ],
    ['a long word', { useWords: ['x'.repeat(BRAND_VOICE_LIMITS.word + 1)] }, 'at most 60'],
    ['a word that is not text', { avoidWords: [3] }, 'Words to avoid must be words'],
  ])('when %s is over its limit, then 400 with the reason', async (_label, override, reason) => {
    const ws = await createWorkspace();

    const put = await t.call('PUT', path(ws.id), { as: sa, body: buildVoice(override) });

    expect(put.status).toBe(400);
    expect(JSON.stringify(put.body)).toContain(reason);
  });
});
