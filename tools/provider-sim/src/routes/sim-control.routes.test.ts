import OpenAI from 'openai';
import {
  defaultSimConfig,
  startProviderSim,
  type ProviderSim,
  type RecordedRequest,
} from '../index';
import { buildClient, TEST_KEY, userMessage } from '../testing/sim-test-kit';

let sim: ProviderSim;
let client: OpenAI;

beforeAll(async () => {
  sim = await startProviderSim();
  client = buildClient(sim);
});
afterAll(() => sim.close());
beforeEach(() => sim.control.reset());

const control = (path: string, init: RequestInit = {}) =>
  fetch(`${sim.origin}/__sim${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

describe('control API over HTTP', () => {
  it('when a failure rule is posted, then the next request fails and the log shows it without the key', async () => {
    const posted = await control('/config', {
      method: 'POST',
      body: JSON.stringify({ fail: { mode: 'rate_limit', count: 1 } }),
    });

    await expect(
      client.chat.completions.create({ model: 'gpt-4o', messages: [userMessage('hi')] }),
    ).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const { requests } = (await (await control('/requests')).json()) as {
      requests: RecordedRequest[];
    };

    expect(posted.status).toBe(200);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ failure: 'rate_limit', status: 429, model: 'gpt-4o' });
    expect(JSON.stringify(requests[0])).not.toContain(TEST_KEY);
  });

  it('when the config is reset, then the defaults return and the log is empty', async () => {
    await control('/config', {
      method: 'POST',
      body: JSON.stringify({ latencyMs: 5, fillerTokens: 3 }),
    });
    await client.models.list();

    const reset = await control('/reset', { method: 'POST' });
    const { requests } = (await (await control('/requests')).json()) as {
      requests: RecordedRequest[];
    };

    expect(await reset.json()).toEqual(defaultSimConfig);
    expect(requests).toEqual([]);
  });

  it("when the log is filtered by API key, then only that key's requests come back", async () => {
    await buildClient(sim, { apiKey: 'sk-workspace-a' }).models.list();
    await client.models.list();

    const response = await control(`/requests?apiKey=${encodeURIComponent('sk-workspace-a')}`);
    const { requests } = (await response.json()) as { requests: RecordedRequest[] };

    expect(requests).toHaveLength(1);
    expect(requests[0]?.apiKeyHint).toBe('sk-wor***ce-a');
  });

  it('when an invalid config is posted, then the answer is 400 and names the key', async () => {
    const response = await control('/config', {
      method: 'POST',
      body: JSON.stringify({ tokensPerSecond: -1 }),
    });

    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      'tokensPerSecond',
    );
  });

  it('when a started simulator is given a config, then reset() returns to it', async () => {
    const tuned = await startProviderSim({ config: { fillerTokens: 2 } });
    try {
      tuned.control.set({ fillerTokens: 100 });

      expect(tuned.control.reset().fillerTokens).toBe(2);
    } finally {
      await tuned.close();
    }
  });
});
