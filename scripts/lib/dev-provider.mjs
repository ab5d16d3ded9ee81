// `npm start`'s AI provider: with --simulator a development key is stored as the global
// provider key (when none is set) and the default workspace gets a default chat prompt (when it
// has none), so that a newcomer can chat at once; the start message says which provider is
// used and, without the simulator, where the provider key goes.

/** The global key stored for the local simulator (which accepts any key but sk-invalid-*). */
export const SIMULATOR_KEY = 'sk-simulator-development';

/** Where a super admin adds the provider key in the product. */
export const API_KEYS_PATH = '/settings?tab=api-keys';

/** Signs in as the super admin; answers the session cookie to send on. */
async function signIn({ url, username, password, fetch }) {
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!login.ok) throw new Error(`signing in as ${username} failed (${login.status})`);
  return (login.headers.getSetCookie?.() ?? [login.headers.get('set-cookie') ?? ''])
    .map((header) => header.split(';')[0])
    .filter(Boolean)
    .join('; ');
}

/** The default workspace (id 1), which every installation has. */
export const DEFAULT_WORKSPACE_ID = 1;

/** The default chat prompt seeded with the simulator when the default workspace has none. */
export const DEV_DEFAULT_PROMPT = {
  name: 'Assistant',
  description: 'Answers chat messages.',
  template: '{message}',
  category: 'Marketing',
  contentType: 'text',
  model: 'gpt-4o',
  isPublic: true,
  isDefault: true,
  workspaceId: DEFAULT_WORKSPACE_ID,
};

/**
 * Signs in as the super admin and makes chat work at once on the simulator: stores
 * SIMULATOR_KEY as the global provider key unless a global key is set (a key someone chose is
 * never replaced), and gives the default workspace a default chat prompt unless it has one.
 * @param {{ url: string, username: string, password: string, fetch?: typeof fetch }} options
 * @returns {Promise<{ key: 'set' | 'kept', prompt: 'set' | 'kept' }>}
 */
export async function seedSimulator({ url, username, password, fetch = globalThis.fetch }) {
  const cookie = await signIn({ url, username, password, fetch });
  const json = { cookie, 'content-type': 'application/json' };

  let key = 'kept';
  const settingUrl = `${url}/api/settings/openai_api_key`;
  const current = await fetch(settingUrl, { headers: { cookie } });
  if (!current.ok && current.status !== 404)
    throw new Error(`reading the global provider key failed (${current.status})`);
  if (!(current.ok && (await current.json()).value)) {
    const saved = await fetch(settingUrl, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ value: SIMULATOR_KEY }),
    });
    if (!saved.ok) throw new Error(`storing the development provider key failed (${saved.status})`);
    key = 'set';
  }

  let prompt = 'kept';
  const workspace = { 'x-workspace-id': String(DEFAULT_WORKSPACE_ID) };
  const found = await fetch(`${url}/api/prompts/default?workspaceId=${DEFAULT_WORKSPACE_ID}`, {
    headers: { cookie, ...workspace },
  });
  if (found.status === 404) {
    const created = await fetch(`${url}/api/prompts`, {
      method: 'POST',
      headers: { ...json, ...workspace },
      body: JSON.stringify(DEV_DEFAULT_PROMPT),
    });
    if (!created.ok) throw new Error(`creating the default chat prompt failed (${created.status})`);
    prompt = 'set';
  } else if (!found.ok) {
    throw new Error(`reading the default prompt failed (${found.status})`);
  }
  return { key, prompt };
}

/**
 * The message `npm start` prints once the product runs.
 * @param {{ url: string, superAdmin: { username: string, password: string }, providerUrl: string, simulator: boolean, seeded?: { key: 'set' | 'kept', prompt: 'set' | 'kept' } }} stack
 *   `seeded`: what seedSimulator did (undefined: it failed)
 */
export function startMessage({ url, superAdmin, providerUrl, simulator, seeded }) {
  const provider = simulator
    ? [
        `  AI provider: ${providerUrl} (the local simulator)`,
        ...(seeded
          ? [
              seeded.key === 'set'
                ? `    A development key (${SIMULATOR_KEY}) is set as the global provider key.`
                : '    The global provider key set earlier is kept; the simulator accepts any sk- key.',
              seeded.prompt === 'set'
                ? `    The Default workspace got a default chat prompt ('${DEV_DEFAULT_PROMPT.name}'): chat away.`
                : '    The Default workspace keeps its default prompt: chat away.',
            ]
          : [
              `    Add any sk- key as the provider key in Settings > API Keys: ${url}${API_KEYS_PATH}`,
            ]),
      ]
    : [
        `  AI provider: ${providerUrl}`,
        '    Generation needs a provider key. Sign in as the super administrator and add it in',
        `    Settings > API Keys: ${url}${API_KEYS_PATH}`,
        '    (for all workspaces, or per workspace). To try it without a key:',
        '    npm start -- --simulator',
      ];
  return [
    '',
    `  The product is running at ${url}`,
    '',
    '  Sign in as the super administrator:',
    `    username  ${superAdmin.username}`,
    `    password  ${superAdmin.password}`,
    '  (generated once for this checkout and kept in .data/secrets.json)',
    '',
    ...provider,
    '',
    '  Logs: .data/logs/dev-*.log    Stop: Ctrl+C',
    '',
  ].join('\n');
}
