import {
  DEV_DEFAULT_PROMPT,
  SIMULATOR_KEY,
  seedSimulator,
  startMessage,
  // @ts-expect-error: a plain .mjs module of the start-up scripts, without type declarations
} from './dev-provider.mjs';

// npm start's provider set-up: with --simulator a development key becomes the global provider
// key and the default workspace gets a default chat prompt (never replacing what is set); the
// start message says where the key goes.

interface Call {
  method: string;
  url: string;
  cookie: string | null;
  body: unknown;
}

/** The product's calls, answered as the gateway would, over a stored key and default prompt. */
function product(
  state: { key: string | null; prompt: unknown },
  { loginStatus = 200, promptStatus = 201 } = {},
) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const path = url.replace('http://127.0.0.1:8080', '');
    calls.push({ method, url: path, cookie: headers.get('cookie'), body });
    if (path === '/api/login')
      return new Response(JSON.stringify({ id: 'u1' }), {
        status: loginStatus,
        headers: { 'set-cookie': 'session=abc; Path=/; HttpOnly' },
      });
    if (headers.get('cookie') !== 'session=abc') return new Response('{}', { status: 401 });
    if (path === '/api/settings/openai_api_key') {
      if (method === 'PUT') state.key = body.value;
      const value = state.key && `sk-…${state.key.slice(-4)}`;
      return new Response(JSON.stringify({ key: 'openai_api_key', value, scope: 'global' }));
    }
    if (path === '/api/prompts/default?workspaceId=1')
      return state.prompt
        ? new Response(JSON.stringify({ id: 'p1', model: 'gpt-4o' }))
        : new Response('{}', { status: 404 });
    if (path === '/api/prompts' && method === 'POST') {
      if (promptStatus < 300) state.prompt = body;
      return new Response(JSON.stringify({ id: 'p2' }), { status: promptStatus });
    }
    return new Response('{}', { status: 404 });
  };
  return { calls, fetch, state };
}

const stack = {
  url: 'http://127.0.0.1:8080',
  superAdmin: { username: 'root', password: 'secret' },
};
const seed = (fetch: unknown) => seedSimulator({ ...stack, ...stack.superAdmin, fetch });

describe('setting up the simulator for chat', () => {
  it('when nothing is set, then the super admin signs in, stores the development key and a default chat prompt', async () => {
    const api = product({ key: null, prompt: null });
    await expect(seed(api.fetch)).resolves.toEqual({ key: 'set', prompt: 'set' });
    expect(api.state.key).toBe(SIMULATOR_KEY);
    expect(api.state.prompt).toEqual(DEV_DEFAULT_PROMPT);
    expect(DEV_DEFAULT_PROMPT).toMatchObject({
      isDefault: true,
      workspaceId: 1,
      template: '{message}',
    });
    expect(api.calls[0]).toMatchObject({
      url: '/api/login',
      body: { username: 'root', password: 'secret' },
    });
    expect(api.calls.slice(1).every((call) => call.cookie === 'session=abc')).toBe(true);
  });

  it('when a global key and a default prompt exist, then both are kept', async () => {
    const api = product({ key: 'sk-chosen-by-someone', prompt: { name: 'Mine' } });
    await expect(seed(api.fetch)).resolves.toEqual({ key: 'kept', prompt: 'kept' });
    expect(api.state).toEqual({ key: 'sk-chosen-by-someone', prompt: { name: 'Mine' } });
    expect(api.calls.some((call) => call.method !== 'GET' && call.url !== '/api/login')).toBe(
      false,
    );
  });

  it('when signing in fails, then it says so and stores nothing', async () => {
    const api = product({ key: null, prompt: null }, { loginStatus: 401 });
    await expect(seed(api.fetch)).rejects.toThrow('signing in as root failed (401)');
    expect(api.state).toEqual({ key: null, prompt: null });
  });

  it('when the prompt is refused, then it says so', async () => {
    const api = product({ key: null, prompt: null }, { promptStatus: 400 });
    await expect(seed(api.fetch)).rejects.toThrow('creating the default chat prompt failed (400)');
  });
});

describe('the start message', () => {
  it('when started without the simulator, then it says where the provider key goes and how to try the simulator', () => {
    const text = startMessage({
      ...stack,
      providerUrl: 'https://api.openai.com/v1',
      simulator: false,
    });
    expect(text).toContain('The product is running at http://127.0.0.1:8080');
    expect(text).toContain('username  root');
    expect(text).toContain('AI provider: https://api.openai.com/v1');
    expect(text).toContain('Settings > API Keys: http://127.0.0.1:8080/settings?tab=api-keys');
    expect(text).toContain('npm start -- --simulator');
  });

  it('when started with the simulator and it was set up, then it says chat works at once', () => {
    const text = startMessage({
      ...stack,
      providerUrl: 'http://127.0.0.1:4191/v1',
      simulator: true,
      seeded: { key: 'set', prompt: 'set' },
    });
    expect(text).toContain('AI provider: http://127.0.0.1:4191/v1 (the local simulator)');
    expect(text).toContain(
      `A development key (${SIMULATOR_KEY}) is set as the global provider key`,
    );
    expect(text).toContain("default chat prompt ('Assistant'): chat away");
    expect(text).not.toContain('npm start -- --simulator');
  });

  it('when the simulator could not be set up, then it says where to add a key', () => {
    const text = startMessage({
      ...stack,
      providerUrl: 'http://127.0.0.1:4191/v1',
      simulator: true,
    });
    expect(text).toContain('Add any sk- key as the provider key in Settings > API Keys');
  });
});
