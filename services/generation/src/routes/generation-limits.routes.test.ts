import { startHarness, waitFor, type Harness, type Workspace } from '../test-support/harness';

// A small cap (2 running + 2 queued per workspace) and a short whole-call deadline, so that
// the limits show with a handful of requests.
let t: Harness;
beforeAll(async () => {
  t = await startHarness({
    PROVIDER_DEADLINE_MS: '3000',
    GENERATION_MAX_CONCURRENT_PER_WORKSPACE: '2',
    GENERATION_MAX_QUEUED_PER_WORKSPACE: '2',
    GENERATION_BUSY_RETRY_AFTER_SECONDS: '3',
  });
}, 90_000);
afterAll(() => t?.stop(), 60_000);
afterEach(() => t.sim.control.set({ latencyMs: 0, tokensPerSecond: 0, fillerTokens: 5, fail: [] }));

async function workspaceWithPrompt() {
  const ws = await t.newWorkspace();
  return { ws, promptId: await t.newPrompt(ws) };
}

const generate = (ws: Workspace, promptId: string, headers: Record<string, string> = {}) =>
  t.call('POST', '/api/generate', {
    as: ws.user,
    headers,
    body: { promptId, inputs: { message: 'hello' } },
  });

const savedCount = (ws: Workspace) =>
  t.generation.deps
    .mongo!.collection('generations')
    .countDocuments({ workspaceId: ws.id } as never);

describe('the deadline of a provider call', () => {
  it('when the provider keeps a stream trickling past the deadline, then PROVIDER.TIMEOUT, its connection is closed and nothing is saved', async () => {
    const { ws, promptId } = await workspaceWithPrompt();
    // ~30 tokens at 4 a second: each chunk comes well within the idle timeout, the whole
    // answer would take ~8 s, past the 3 s deadline.
    t.sim.control.set({ tokensPerSecond: 4, fillerTokens: 25 });

    const res = await generate(ws, promptId);

    expect(res.status).toBe(504);
    expect(res.body.code).toBe('PROVIDER.TIMEOUT');
    const chat = () => t.sim.control.requests({ apiKey: ws.apiKey, path: '/v1/chat/completions' });
    await waitFor(
      () => chat().length > 0 && chat().every((request) => !request.connectionOpen),
      'the provider connection to close',
    );
    const requests = chat();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ aborted: true, completed: false });
    expect(await savedCount(ws)).toBe(0);
  }, 20_000);
});

describe('the per-workspace cap (noisy neighbour)', () => {
  it('when one workspace sends more generations than it may run and queue, then the rest get 429 with Retry-After, none fails otherwise, and another workspace is served meanwhile', async () => {
    const a = await workspaceWithPrompt();
    const b = await workspaceWithPrompt();
    t.sim.control.set({ latencyMs: 400 });

    const flood = Array.from({ length: 8 }, () => generate(a.ws, a.promptId));
    const other = await generate(b.ws, b.promptId);
    const answers = await Promise.all(flood);

    expect(other.status).toBe(200);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    for (const refused of answers.filter((res) => res.status === 429)) {
      expect(refused.headers.get('retry-after')).toBe('3');
      expect(refused.body).toEqual({
        code: 'GENERATION.WORKSPACE_BUSY',
        message:
          'This workspace already has many generations running. Please try again in a few seconds.',
      });
    }
    expect(t.sim.control.requests({ apiKey: a.ws.apiKey })).toHaveLength(4);
    expect(await savedCount(a.ws)).toBe(4);
  }, 20_000);

  it('when a refused stream is asked for, then it gets the plain 429 before any event', async () => {
    const { ws, promptId } = await workspaceWithPrompt();
    t.sim.control.set({ latencyMs: 400 });

    const held = Array.from({ length: 4 }, () => generate(ws, promptId));
    const refused = await generate(ws, promptId, { accept: 'text/event-stream' });
    await Promise.all(held);

    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(refused.body.code).toBe('GENERATION.WORKSPACE_BUSY');
  }, 20_000);

  it('when generations fail at the provider or their clients leave, then their places are given back', async () => {
    const { ws, promptId } = await workspaceWithPrompt();
    t.sim.control.set({ fail: [{ mode: 'server_error', apiKey: ws.apiKey }] });
    const failed = await Promise.all(Array.from({ length: 4 }, () => generate(ws, promptId)));
    expect(failed.map((res) => res.status)).toEqual([502, 502, 502, 502]);
    t.sim.control.set({ fail: [], tokensPerSecond: 2, fillerTokens: 25 });
    const leaving = Array.from({ length: 2 }, () => new AbortController());
    const streams = leaving.map((controller) =>
      t
        .call('POST', '/api/generate', {
          as: ws.user,
          headers: { accept: 'text/event-stream' },
          body: { promptId, inputs: { message: 'hello' } },
          signal: controller.signal,
        })
        .catch(() => null),
    );
    await waitFor(
      () => t.sim.control.requests({ apiKey: ws.apiKey }).filter((r) => !r.failure).length === 2,
      'both streams to reach the provider',
    );
    for (const controller of leaving) controller.abort();
    await Promise.all(streams);
    await waitFor(
      () =>
        t.sim.control
          .requests({ apiKey: ws.apiKey })
          .filter((r) => !r.failure)
          .every((r) => !r.connectionOpen),
      'the abandoned provider calls to end',
    );
    t.sim.control.set({ tokensPerSecond: 0, fillerTokens: 5, latencyMs: 300 });

    const answers = await Promise.all(Array.from({ length: 4 }, () => generate(ws, promptId)));

    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
  }, 20_000);
});
