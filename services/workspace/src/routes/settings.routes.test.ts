import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PROVIDER_CONFIG_RPC,
  ProviderConfig,
  SettingResponse,
  TestConnectionResponse,
  type Workspace,
} from '@aict/contracts';
import { startProviderSim, type ProviderSim } from '@aict/provider-sim';
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
let sim: ProviderSim;
let closedPortUrl: string;
/** A provider that answers every request with a redirect to the simulator. */
let redirector: Server;
let redirectorUrl: string;

/** A port nobody listens on: opened, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  sim = await startProviderSim({ port: 0 });
  closedPortUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  redirector = createServer((_req, res) => {
    res.writeHead(302, { location: `${sim.url}/models` }).end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/v1`;
  t = await startHarness({
    OPENAI_BASE_URL: sim.url,
    // The local addresses these tests save as base URLs; nothing else private.
    PROVIDER_URL_ALLOWED_ORIGINS: [sim.url, closedPortUrl, redirectorUrl, 'http://127.0.0.1:9']
      .map((url) => new URL(url).origin)
      .join(','),
    PROVIDER_TEST_TIMEOUT_MS: '1000',
    LOG_LEVEL: 'trace',
  });
});
afterAll(async () => {
  await t.stop();
  await sim.close();
  await new Promise((resolve) => redirector.close(resolve));
});

async function createWorkspace(): Promise<Workspace> {
  const res = await t.call('POST', '/api/workspaces', { as: sa, body: { name: uniqueName() } });
  expect(res.status).toBe(201);
  return res.body;
}

const keyOf = (label: string) => `sk-${label}-${Math.random().toString(36).slice(2, 12)}-abcd1234`;

async function setSetting(scope: number | null, key: string, value: string | null) {
  const path = scope === null ? `/api/settings/${key}` : `/api/workspaces/${scope}/settings/${key}`;
  const res =
    value === null
      ? await t.call('DELETE', path, { as: sa })
      : await t.call('PUT', path, { as: sa, body: { value } });
  expect(res.status).toBe(value === null ? 204 : 200);
}

async function testConnection(workspaceId: number | null) {
  const res = await t.call('POST', '/api/test-openai-connection', {
    as: sa,
    body: workspaceId === null ? {} : { workspaceId },
  });
  expect(res.status).toBe(200);
  return TestConnectionResponse.parse(res.body);
}

describe('the provider API key', () => {
  it('when a workspace key is saved, then it is stored encrypted and only ever answered masked', async () => {
    const workspace = await createWorkspace();
    const key = keyOf('live');

    const put = await t.call('PUT', `/api/workspaces/${workspace.id}/settings/openai_api_key`, {
      as: member({ [workspace.id]: 'admin' }),
      body: { value: key },
    });
    const get = await t.call('GET', `/api/workspaces/${workspace.id}/settings/openai_api_key`, {
      as: member({ [workspace.id]: 'admin' }),
    });

    const masked = `sk-…${key.slice(-4)}`;
    expect(put.status).toBe(200);
    expect(SettingResponse.parse(put.body)).toEqual({
      key: 'openai_api_key',
      value: masked,
      scope: 'workspace',
    });
    expect(get.body).toEqual(put.body);
    const raw = await t.db
      .collection('settings')
      .findOne({ _id: `${workspace.id}:openai_api_key` } as never);
    expect(raw?.value).toMatch(/^k1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(JSON.stringify(raw)).not.toContain(key.slice(3, -4));
    const event = await t.waitForEvent(
      (e) =>
        e.type === 'settings.changed' &&
        (e.data as { workspaceId: number }).workspaceId === workspace.id,
    );
    expect(event.data).toEqual({ workspaceId: workspace.id, key: 'openai_api_key' });
  });

  it('when the same key is saved twice, then the stored ciphertexts differ (a fresh IV each time)', async () => {
    const workspace = await createWorkspace();
    const key = keyOf('twice');
    const read = async () =>
      (
        await t.db
          .collection('settings')
          .findOne({ _id: `${workspace.id}:openai_api_key` } as never)
      )?.value;

    await setSetting(workspace.id, 'openai_api_key', key);
    const first = await read();
    await setSetting(workspace.id, 'openai_api_key', key);

    expect(await read()).not.toBe(first);
  });

  it("when a workspace's ciphertext is copied into another workspace, then it does not decrypt there", async () => {
    const [a, b] = [await createWorkspace(), await createWorkspace()];
    await setSetting(a.id, 'openai_api_key', keyOf('copied'));
    await setSetting(b.id, 'openai_api_key', keyOf('other'));
    await t.settled('settings', `${b.id}:openai_api_key`);
    const fromA = await t.db
      .collection('settings')
      .findOne({ _id: `${a.id}:openai_api_key` } as never);
    await t.db
      .collection('settings')
      .updateOne({ _id: `${b.id}:openai_api_key` } as never, { $set: { value: fromA?.value } });

    const res = await t.call('GET', `/api/workspaces/${b.id}/settings/openai_api_key`, { as: sa });

    expect(res.body.value).toBeNull();
  });

  it('when the global key is saved and deleted, then it reads masked, then null', async () => {
    const key = keyOf('global');
    await setSetting(null, 'openai_api_key', key);
    const saved = await t.call('GET', '/api/settings/openai_api_key', { as: sa });

    await setSetting(null, 'openai_api_key', null);
    const deleted = await t.call('GET', '/api/settings/openai_api_key', { as: sa });

    expect(saved.body).toEqual({
      key: 'openai_api_key',
      value: `sk-…${key.slice(-4)}`,
      scope: 'global',
    });
    expect(deleted.body).toEqual({ key: 'openai_api_key', value: null, scope: 'global' });
  });

  it('when the key is blank, then 400', async () => {
    const res = await t.call('PUT', '/api/settings/openai_api_key', {
      as: sa,
      body: { value: ' ' },
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('API key is required');
  });
});

describe('the provider base URL', () => {
  it('when a base URL is saved, then it is stored without a trailing slash and answered in full', async () => {
    const workspace = await createWorkspace();

    const res = await t.call('PUT', `/api/workspaces/${workspace.id}/settings/openai_base_url`, {
      as: sa,
      body: { value: `${sim.url}/` },
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: 'openai_base_url', value: sim.url, scope: 'workspace' });
  });

  it('when the base URL is not an http(s) URL or holds credentials, then 400', async () => {
    for (const value of ['ftp://example.com/v1', 'not a url', 'https://me:secret@example.com/v1']) {
      const res = await t.call('PUT', '/api/settings/openai_base_url', { as: sa, body: { value } });
      expect(res.status).toBe(400);
    }
  });
});

describe('default models', () => {
  it('when nothing is set, then the SPEC defaults apply; the lists are the SPEC lists', async () => {
    const fresh = await createWorkspace();
    await t.call('DELETE', '/api/settings/openai_api_key', { as: sa });
    const caller = member({ [fresh.id]: 'user' });

    const text = await t.call('GET', '/api/settings/default_text_model', { as: caller });
    const image = await t.call('GET', '/api/settings/default_image_model', { as: caller });
    const textModels = await t.call('GET', '/api/models/text', { as: caller });
    const imageModels = await t.call('GET', '/api/models/image', { as: caller });

    // Another test may have set a global default; a fresh workspace inherits it.
    expect(['default', 'global']).toContain(text.body.scope);
    expect(image.body.key).toBe('default_image_model');
    expect(textModels.body).toEqual(['gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo']);
    expect(imageModels.body).toEqual(['dall-e-3', 'gpt-image-1']);
  });

  it('when a super admin sets the global default and an admin their workspace default, then each workspace reads its own or the global one', async () => {
    const [own, other] = [await createWorkspace(), await createWorkspace()];

    const global = await t.call('PUT', '/api/settings/default_text_model', {
      as: superAdmin({ ws: null }),
      body: { value: 'gpt-4-turbo' },
    });
    const local = await t.call('PUT', '/api/settings/default_text_model', {
      as: member({ [own.id]: 'admin' }),
      body: { value: 'gpt-3.5-turbo' },
    });
    const readOwn = await t.call('GET', '/api/settings/default_text_model', {
      as: member({ [own.id]: 'user' }),
    });
    const readOther = await t.call('GET', '/api/settings/default_text_model', {
      as: member({ [other.id]: 'user' }),
    });

    expect(global.body).toEqual({
      key: 'default_text_model',
      value: 'gpt-4-turbo',
      scope: 'global',
    });
    expect(local.body).toEqual({
      key: 'default_text_model',
      value: 'gpt-3.5-turbo',
      scope: 'workspace',
    });
    expect(readOwn.body).toEqual({
      key: 'default_text_model',
      value: 'gpt-3.5-turbo',
      scope: 'workspace',
    });
    expect(readOther.body).toEqual({
      key: 'default_text_model',
      value: 'gpt-4-turbo',
      scope: 'global',
    });
  });

  it('when a model outside the SPEC lists is chosen, then 400', async () => {
    const text = await t.call('PUT', '/api/settings/default_text_model', {
      as: sa,
      body: { value: 'dall-e-3' },
    });
    const image = await t.call('PUT', '/api/settings/default_image_model', {
      as: sa,
      body: { value: 'gpt-4o' },
    });

    expect(text.status).toBe(400);
    expect(text.body.message).toBe('Model must be one of: gpt-4o, gpt-4-turbo, gpt-3.5-turbo');
    expect(image.status).toBe(400);
  });
});

describe('POST /api/test-openai-connection against the provider simulator', () => {
  it('when no key is set for the workspace or globally, then it says so', async () => {
    const workspace = await createWorkspace();
    await setSetting(null, 'openai_api_key', null);

    const result = await testConnection(workspace.id);

    expect(result).toEqual({
      success: false,
      message: 'No API key is configured for this workspace or globally. Save an API key first.',
    });
  });

  it('when the workspace key is valid, then success, with the key sent to the provider and shown nowhere', async () => {
    const workspace = await createWorkspace();
    const key = keyOf('valid');
    await setSetting(workspace.id, 'openai_api_key', key);
    await setSetting(workspace.id, 'openai_base_url', sim.url);

    const result = await testConnection(workspace.id);

    expect(result.success).toBe(true);
    expect(result.message).toMatch(
      /^Connection successful: .* answered with \d+ models \(using the workspace's API key\)\.$/,
    );
    expect(result.message).not.toContain(key);
    const seen = sim.control.requests({ path: '/v1/models' }).at(-1);
    expect(seen?.apiKeyHint).toBe(`${key.slice(0, 6)}***${key.slice(-4)}`);
  });

  it('when the key is wrong, then a clear 401 failure without the key in it', async () => {
    const workspace = await createWorkspace();
    const key = keyOf('invalid');
    await setSetting(workspace.id, 'openai_api_key', key);

    const result = await testConnection(workspace.id);

    expect(result).toEqual({
      success: false,
      message:
        'The AI provider rejected the API key (401 Unauthorized). Check the key and save it again.',
    });
  });

  it('when the provider is unreachable (a closed port), then a clear failure naming the address', async () => {
    const workspace = await createWorkspace();
    await setSetting(workspace.id, 'openai_api_key', keyOf('unreachable'));
    await setSetting(workspace.id, 'openai_base_url', closedPortUrl);

    const result = await testConnection(workspace.id);

    expect(result).toEqual({
      success: false,
      message: `Could not reach the AI provider at ${new URL(closedPortUrl).origin}. Check the base URL and the network.`,
    });
  });

  it('when the provider never answers, then it gives up after the timeout and says so', async () => {
    const workspace = await createWorkspace();
    const key = keyOf('hang');
    await setSetting(workspace.id, 'openai_api_key', key);
    await setSetting(workspace.id, 'openai_base_url', sim.url);
    sim.control.set({ fail: { mode: 'hang', apiKey: key } });

    try {
      const result = await testConnection(workspace.id);

      expect(result).toEqual({
        success: false,
        message: `The AI provider at ${sim.origin} did not answer within 1 second.`,
      });
    } finally {
      sim.control.set({ fail: null });
    }
  });

  it('when the provider answers with a redirect, then it is not followed', async () => {
    const workspace = await createWorkspace();
    await setSetting(workspace.id, 'openai_api_key', keyOf('redirect'));
    await setSetting(workspace.id, 'openai_base_url', redirectorUrl);
    const before = sim.control.requests({ path: '/v1/models' }).length;

    const result = await testConnection(workspace.id);

    expect(result.success).toBe(false);
    expect(result.message).toContain('redirect (302), which is not followed');
    expect(sim.control.requests({ path: '/v1/models' })).toHaveLength(before);
  });

  it('when a workspace has no key, then the global key is used with the global base URL, never with the workspace URL', async () => {
    const workspace = await createWorkspace();
    await setSetting(null, 'openai_api_key', keyOf('global'));
    await setSetting(null, 'openai_base_url', sim.url);
    await setSetting(workspace.id, 'openai_base_url', closedPortUrl);

    try {
      const result = await testConnection(workspace.id);

      expect(result.success).toBe(true);
      expect(result.message).toContain('(using the global API key)');
    } finally {
      await setSetting(null, 'openai_base_url', null);
    }
  });

  it('when the global key is tested without a workspace, then the environment base URL is used', async () => {
    await setSetting(null, 'openai_api_key', keyOf('env'));

    const result = await testConnection(null);

    expect(result.success).toBe(true);
    expect(result.message).toContain(`at ${sim.origin}`);
  });
});

describe('secrecy of the key', () => {
  it('when keys are saved, read and tested (valid and wrong), then none of them is in any log line', async () => {
    const workspace = await createWorkspace();
    const [valid, wrong] = [keyOf('logged'), keyOf('invalid-logged')];
    await setSetting(workspace.id, 'openai_base_url', sim.url);
    await setSetting(workspace.id, 'openai_api_key', valid);
    await t.call('GET', `/api/workspaces/${workspace.id}/settings/openai_api_key`, { as: sa });
    await testConnection(workspace.id);
    await setSetting(workspace.id, 'openai_api_key', wrong);
    await testConnection(workspace.id);

    const logs = t.logs();
    expect(logs).toContain('provider connection tested');
    for (const key of [valid, wrong]) expect(logs).not.toContain(key.slice(3, -4));
  });
});

describe('workspace.provider-config request/reply', () => {
  it('when a workspace has its own key and base URL, then it gets them, decrypted, with its models', async () => {
    const workspace = await createWorkspace();
    const key = keyOf('rpc');
    await setSetting(workspace.id, 'openai_api_key', key);
    await setSetting(workspace.id, 'openai_base_url', 'http://127.0.0.1:9/v1');
    await t.call('PUT', '/api/settings/default_image_model', {
      as: member({ [workspace.id]: 'admin' }),
      body: { value: 'gpt-image-1' },
    });

    const reply = ProviderConfig.parse(
      await t.authBus.request(PROVIDER_CONFIG_RPC, { workspaceId: workspace.id }),
    );

    expect(reply).toMatchObject({
      apiKey: key,
      keySource: 'workspace',
      baseUrl: 'http://127.0.0.1:9/v1',
      baseUrlSource: 'workspace',
      defaultImageModel: 'gpt-image-1',
    });
  });

  it('when a workspace has no key, then it gets the global key and the global (or environment) base URL', async () => {
    const workspace = await createWorkspace();
    const globalKey = keyOf('rpc-global');
    await setSetting(null, 'openai_api_key', globalKey);
    await setSetting(workspace.id, 'openai_base_url', 'http://127.0.0.1:9/v1');

    const reply = ProviderConfig.parse(
      await t.authBus.request(PROVIDER_CONFIG_RPC, { workspaceId: workspace.id }),
    );
    const global = ProviderConfig.parse(
      await t.authBus.request(PROVIDER_CONFIG_RPC, { workspaceId: null }),
    );

    expect(reply).toMatchObject({
      apiKey: globalKey,
      keySource: 'global',
      baseUrl: sim.url,
      baseUrlSource: 'environment',
    });
    expect(global).toMatchObject({ apiKey: globalKey, keySource: 'global' });
  });

  it('when the workspace does not exist, then the request fails with WORKSPACE.NOT_FOUND', async () => {
    await expect(
      t.authBus.request(PROVIDER_CONFIG_RPC, { workspaceId: 999_999 }),
    ).rejects.toMatchObject({
      code: 'WORKSPACE.NOT_FOUND',
    });
  });
});

describe('with no private origin allowed (production)', () => {
  let strict: Harness;

  beforeAll(async () => {
    strict = await startHarness({ PROVIDER_URL_ALLOWED_ORIGINS: '', OPENAI_BASE_URL: sim.url });
  });
  afterAll(() => strict.stop());

  it.each([
    ['loopback', 'https://127.0.0.1/v1'],
    ['localhost by name', 'https://localhost:8443/v1'],
    ['private', 'https://10.1.2.3/v1'],
    ['link-local metadata', 'https://169.254.169.254/latest'],
    ['IPv6 loopback', 'https://[::1]/v1'],
    ['IPv4-mapped IPv6', 'https://[::ffff:192.168.1.1]/v1'],
  ])(
    'when the base URL points at a %s address, then 400 PROVIDER.URL_NOT_ALLOWED',
    async (_what, value) => {
      const res = await strict.call('PUT', '/api/settings/openai_base_url', {
        as: sa,
        body: { value },
      });

      expect(res.status).toBe(400);
      expect(res.body.code).toBe('PROVIDER.URL_NOT_ALLOWED');
    },
  );

  it('when the base URL uses plain http, then it is refused', async () => {
    const res = await strict.call('PUT', '/api/settings/openai_base_url', {
      as: sa,
      body: { value: 'http://8.8.8.8/v1' },
    });

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Base URL must use https');
  });

  it('when the base URL is a public https address, then it is saved', async () => {
    const res = await strict.call('PUT', '/api/settings/openai_base_url', {
      as: sa,
      body: { value: 'https://8.8.8.8/v1' },
    });

    expect(res.status).toBe(200);
  });

  it('when a saved base URL now resolves to a private address, then the connection test refuses to connect', async () => {
    // As if DNS had changed since it was saved: the stored value points at the simulator.
    await strict.call('PUT', '/api/settings/openai_api_key', {
      as: sa,
      body: { value: keyOf('rebind') },
    });
    await strict.settled('settings', 'global:openai_base_url');
    await strict.db.collection('settings').updateOne(
      { _id: 'global:openai_base_url' } as never,
      {
        $set: {
          workspaceId: null,
          key: 'openai_base_url',
          value: sim.url.replace('127.0.0.1', 'localhost'),
          updatedAt: new Date(),
        },
      },
      { upsert: true },
    );
    const before = sim.control.requests({ path: '/v1/models' }).length;

    const res = await strict.call('POST', '/api/test-openai-connection', { as: sa, body: {} });

    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain('resolves to a private, loopback or link-local address');
    expect(sim.control.requests({ path: '/v1/models' })).toHaveLength(before);
  });
});
