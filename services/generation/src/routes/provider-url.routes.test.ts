import { randomUUID } from 'node:crypto';
import { startHarness, type Harness, type Workspace } from '../test-support/harness';

jest.setTimeout(60_000);

const superAdmin = () => ({ uid: `sa-${randomUUID()}`, sa: true, roles: {}, ws: null });

/** A workspace whose own provider base URL is the simulator (saved through the workspace service). */
async function workspaceOnSimulator(t: Harness): Promise<Workspace> {
  const ws = await t.newWorkspace();
  const saved = await t.callService(
    'workspace',
    'PUT',
    `/api/workspaces/${ws.id}/settings/openai_base_url`,
    { as: superAdmin(), body: { value: t.sim.url } },
  );
  expect(saved.status).toBe(200);
  return ws;
}

const generate = (t: Harness, ws: Workspace, prompt: string) =>
  t.call('POST', '/api/generate', {
    as: ws.user,
    body: { promptId: prompt, inputs: { subject: 'kites' }, language: 'en', workspaceId: ws.id },
  });

const chatRequests = (t: Harness, ws: Workspace) =>
  t.sim.control.requests({ apiKey: ws.apiKey, path: '/v1/chat/completions' });

describe("when the simulator's origin is allowed (the local run)", () => {
  let t: Harness;
  beforeAll(async () => {
    t = await startHarness();
  }, 90_000);
  afterAll(() => t?.stop(), 60_000);

  it('when a workspace names the simulator as its base URL, then a generation reaches it and answers', async () => {
    const ws = await workspaceOnSimulator(t);
    const prompt = await t.newPrompt(ws);

    const res = await generate(t, ws, prompt);

    expect(res.status).toBe(200);
    expect(res.body.result.text).toContain('Echo: Write about kites in en.');
    expect(chatRequests(t, ws)).toHaveLength(1);
  });

  it("when an admin replaces the workspace's key, then generations go out with the new key (the SDK client of the old one is not reused)", async () => {
    const ws = await workspaceOnSimulator(t);
    const prompt = await t.newPrompt(ws);
    expect((await generate(t, ws, prompt)).status).toBe(200);
    const newKey = `sk-test-replaced-${randomUUID().slice(0, 8)}`;

    const saved = await t.callService(
      'workspace',
      'PUT',
      `/api/workspaces/${ws.id}/settings/openai_api_key`,
      { as: superAdmin(), body: { value: newKey } },
    );
    expect(saved.status).toBe(200);
    // The change reaches the generation service as an event: a few generations may still
    // go out with the old key meanwhile, never after the first with the new one.
    const deadline = Date.now() + 15_000;
    while (
      t.sim.control.requests({ apiKey: newKey, path: '/v1/chat/completions' }).length === 0 &&
      Date.now() < deadline
    )
      expect((await generate(t, ws, prompt)).status).toBe(200);
    const oldBefore = chatRequests(t, ws).length;
    expect((await generate(t, ws, prompt)).status).toBe(200);

    expect(t.sim.control.requests({ apiKey: newKey, path: '/v1/chat/completions' })).toHaveLength(
      2,
    );
    expect(chatRequests(t, ws)).toHaveLength(oldBefore);
  });
});

describe('when the generation service allows no private origin (production)', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await startHarness({ PROVIDER_URL_ALLOWED_ORIGINS: '' });
  }, 90_000);
  afterAll(() => t?.stop(), 60_000);

  it("when a workspace's saved base URL points at a local address, then the generation fails plainly and the key is sent nowhere", async () => {
    const ws = await workspaceOnSimulator(t);
    const prompt = await t.newPrompt(ws);

    const res = await generate(t, ws, prompt);

    expect(res.status).toBe(502);
    expect(res.body.code).toBe('PROVIDER.UNAVAILABLE');
    expect(chatRequests(t, ws)).toHaveLength(0);
  });
});
