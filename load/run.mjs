#!/usr/bin/env node
// npm run load: the k6 load test (load/mixed.js) against the product as `npm start` runs it,
// with the provider simulator at a realistic latency.
//
// 1. the set-up of `npm start` (install, build, infrastructure) and k6 (built when missing);
// 2. the stack on its own ports and fresh databases (scripts/lib/stack.mjs, profile bench);
// 3. as the super administrator, through the API: a global provider key, LOAD_WORKSPACES
//    workspaces (3), and per workspace a default chat prompt, a text and an image prompt;
//    one user per virtual user (64), each a member of exactly one workspace;
// 4. k6 (its summary is printed as k6 prints it); LOAD_RAMP (10s), LOAD_DURATION (30s),
//    LOAD_SCALE (1);
// 5. afterwards: every content of every workspace was made by a member of that workspace
//    (no content landed in the wrong workspace).
// Exits non-zero when a k6 threshold fails or the isolation check finds a stray content.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureK6 } from '../infra/lib/binaries.mjs';
import { DATA_DIR, ROOT } from '../infra/lib/paths.mjs';
import { dropDatabases, startStack } from '../scripts/lib/stack.mjs';
import { setup } from '../scripts/setup.mjs';
import { useProjectNode } from '../infra/lib/node-runtime.mjs';

const WORKSPACES = Number(process.env.LOAD_WORKSPACES ?? 3);
const USERS = Number(process.env.LOAD_USERS ?? 64);
const PASSWORD = 'load-test-password';

/** The simulator's pacing: about what the provider shows for short answers. */
export const REALISTIC_PROVIDER = {
  latencyMs: 80,
  timeToFirstTokenMs: 350,
  tokensPerSecond: 250,
  chunkSize: 3,
  fillerTokens: 60,
};

/** A signed-in API client (cookie kept by hand: Node's fetch has no cookie jar). */
export async function apiClient(baseUrl, username, password) {
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!login.ok) throw new Error(`sign-in of ${username}: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return async function call(method, path, body, workspaceId) {
    const headers = { cookie };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (workspaceId) headers['x-workspace-id'] = String(workspaceId);
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Workspaces, prompts and users for the load; returns the users k6 signs in as. */
export async function prepare(stack, { workspaces = WORKSPACES, users = USERS } = {}) {
  const admin = await apiClient(stack.url, stack.superAdmin.username, stack.superAdmin.password);
  await admin('PUT', '/api/settings/openai_api_key', { value: 'sk-load-test-key' });
  const run = Date.now().toString(36);
  const spaces = [];
  for (let i = 0; i < workspaces; i += 1) {
    const ws = await admin('POST', '/api/workspaces', { name: `Load ${run} ${i + 1}` });
    const prompt = (fields) =>
      admin('POST', '/api/prompts', { workspaceId: ws.id, isPublic: false, ...fields }, ws.id);
    const chat = await prompt({
      name: 'Assistant',
      template: '{message}',
      category: 'Business',
      contentType: 'text',
      model: 'gpt-4o',
      isDefault: true,
    });
    const text = await prompt({
      name: 'Tagline',
      template: 'Write a tagline for {product} in {language}.',
      category: 'Marketing',
      contentType: 'text',
      model: 'gpt-4o',
    });
    const image = await prompt({
      name: 'Poster',
      template: 'A poster of {subject}.',
      category: 'Creative',
      contentType: 'image',
      model: 'dall-e-3',
    });
    spaces.push({ id: ws.id, chat: chat.id, text: text.id, image: image.id });
  }
  const list = [];
  for (let i = 0; i < users; i += 1) {
    const space = spaces[i % spaces.length];
    const username = `load${run}u${i + 1}`;
    await admin('POST', '/api/users', {
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      workspaceId: space.id,
      role: 'user',
    });
    list.push({
      username,
      password: PASSWORD,
      workspaceId: space.id,
      chatPromptId: space.chat,
      textPromptId: space.text,
      imagePromptId: space.image,
    });
  }
  return { admin, spaces, users: list };
}

/** Every content of each workspace was made by one of its members. */
export async function checkIsolation(admin, spaces, users) {
  const membersOf = new Map(spaces.map((s) => [s.id, new Set()]));
  const userIds = new Map();
  const all = await admin('GET', '/api/users');
  for (const u of all) userIds.set(u.username, u.id);
  for (const u of users) membersOf.get(u.workspaceId).add(userIds.get(u.username));
  let total = 0;
  const strays = [];
  for (const space of spaces) {
    let cursor = null;
    do {
      const query = `workspaceId=${space.id}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await admin('GET', `/api/contents?${query}`, undefined, space.id);
      for (const item of page.items) {
        total += 1;
        const wrongWorkspace = item.workspaceId !== undefined && item.workspaceId !== space.id;
        if (wrongWorkspace || !membersOf.get(space.id).has(item.userId))
          strays.push({ workspace: space.id, id: item.id, userId: item.userId });
      }
      cursor = page.nextCursor;
    } while (cursor);
  }
  return { total, strays };
}

export function runK6(k6, args, env) {
  return new Promise((resolve) => {
    const child = spawn(k6, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main() {
  await setup();
  const k6 = await ensureK6();
  const stack = await startStack({
    profile: 'bench',
    simulator: true,
    dbSuffix: `load${Date.now().toString(36)}`,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  let code = 1;
  try {
    await fetch(`${stack.simulatorUrl}/__sim/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(REALISTIC_PROVIDER),
    });
    const { admin, spaces, users } = await prepare(stack);
    mkdirSync(DATA_DIR, { recursive: true });
    const usersFile = join(DATA_DIR, 'load-users.json');
    writeFileSync(usersFile, JSON.stringify(users));
    console.log(
      `load: ${users.length} users in ${spaces.length} workspaces against ${stack.url}; ` +
        `provider simulator ${JSON.stringify(REALISTIC_PROVIDER)}`,
    );
    code = await runK6(k6, ['run', '--quiet', join(ROOT, 'load', 'mixed.js')], {
      BASE_URL: stack.url,
      LOAD_USERS_FILE: usersFile,
    });
    const { total, strays } = await checkIsolation(admin, spaces, users);
    console.log(
      `isolation: ${total} contents in ${spaces.length} workspaces, ${strays.length} in the wrong workspace`,
    );
    if (strays.length > 0) {
      console.log(JSON.stringify(strays.slice(0, 10), null, 2));
      code = code || 2;
    }
  } finally {
    await stack.stop();
    // Each run has databases of its own (dbSuffix): none is left behind.
    await dropDatabases(stack.databases);
  }
  process.exit(code);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await useProjectNode();
  await main();
}
