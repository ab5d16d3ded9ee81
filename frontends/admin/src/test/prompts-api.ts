import type { Prompt } from '@aict/contracts';
import { parseTemplate } from '@aict/contracts';
import {
  answer,
  buildUser,
  buildWorkspace,
  stubApi,
  type Answer,
  type StubCall,
} from '@aict/web-kit/testing';

// A small in-memory prompt service for the Prompts screens (SPEC §7 Prompts), stubbed at the
// fetch boundary: non-admins get summaries (no template, no reference images), lists are
// summaries for everyone. Each test starts from its own state and may override any route by
// its exact "METHOD /url".

export const acme = buildWorkspace(1, 'Acme');

export const admin = buildUser({
  id: 'admin',
  username: 'ada admin',
  workspaceRoles: { '1': 'admin' },
});
export const member = buildUser({
  id: 'member',
  username: 'mo member',
  workspaceRoles: { '1': 'user' },
});
export const superAdmin = buildUser({
  id: 'root',
  username: 'root',
  isSuperAdmin: true,
  workspaceRoles: {},
});

let sequence = 0;

/** A full prompt (as an admin sees it); variables follow the template. */
export function buildPrompt(overrides: Partial<Prompt> = {}): Prompt {
  sequence += 1;
  const template = overrides.template ?? 'Write about {topic} in {language}.';
  return {
    id: `p${sequence}`,
    name: `Prompt ${sequence}`,
    description: 'A prompt for tests',
    category: 'Marketing',
    contentType: 'text',
    model: 'gpt-4o',
    isPublic: false,
    isDefault: false,
    workspaceId: 1,
    userId: 'admin',
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    referenceImageUrls: [],
    ...overrides,
    template,
    variables: overrides.variables ?? parseTemplate(template).variables,
  };
}

type TestUser = ReturnType<typeof buildUser>;
type Handler = (call: StubCall) => Answer | Promise<Answer>;

const json = (data: unknown, status = 200) => answer(status, data);

function summary(prompt: Prompt) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { template, referenceImageUrl, referenceImageUrls, ...rest } = prompt;
  return rest;
}

export function promptsServer({
  me,
  prompts = [],
  workspaces = [acme],
  routes = {},
}: {
  me: TestUser;
  prompts?: Prompt[];
  workspaces?: ReturnType<typeof buildWorkspace>[];
  routes?: Record<string, Handler>;
}) {
  const state = { prompts: [...prompts] };
  const isAdmin = me.isSuperAdmin || me.workspaceRoles['1'] === 'admin';
  const view = (prompt: Prompt) => (isAdmin ? prompt : summary(prompt));
  const find = (id: string) => state.prompts.find((prompt) => prompt.id === id);

  const handle = (call: StubCall): Answer => {
    const url = new URL(call.url, 'http://test');
    const path = url.pathname;
    if (path === '/api/prompts' && call.method === 'GET') {
      const type = url.searchParams.get('contentType');
      return json(
        state.prompts.filter((p) => !type || p.contentType === type).map((p) => summary(p)),
      );
    }
    if (path === '/api/prompts' && call.method === 'POST') {
      const body = call.body as Prompt;
      const created = buildPrompt({
        ...body,
        id: `new-${state.prompts.length + 1}`,
        userId: me.id,
      });
      state.prompts.push(created);
      return json(view(created), 201);
    }
    // Template results (issue 18): a prompt nobody has run yet, unless a test says otherwise.
    const results = /^\/api\/prompts\/([^/]+)\/results$/.exec(path);
    if (results && call.method === 'GET') {
      const id = decodeURIComponent(results[1]!);
      if (!find(id)) return json({ code: 'PROMPT.NOT_FOUND', message: 'Prompt Not Found' }, 404);
      return json({
        promptId: id,
        workspaceId: 1,
        currentVersion: 1,
        currency: 'USD',
        versions: [
          {
            version: 1,
            runs: 0,
            approved: 0,
            approvedShare: 0,
            costMicros: null,
            costPerApprovedMicros: null,
          },
        ],
        users: [],
      });
    }
    const match = /^\/api\/prompts\/([^/]+)(\/reference-image(?:\/(\d+))?)?$/.exec(path);
    const prompt = match ? find(decodeURIComponent(match[1]!)) : undefined;
    if (!match) return answer(404, 'Not found');
    if (!prompt) return json({ code: 'PROMPT.NOT_FOUND', message: 'Prompt Not Found' }, 404);
    const replace = (next: Prompt) => {
      state.prompts = state.prompts.map((p) => (p.id === next.id ? next : p));
      return json(view(next));
    };
    if (!match[2]) {
      if (call.method === 'GET') return json(view(prompt));
      if (call.method === 'DELETE') {
        state.prompts = state.prompts.filter((p) => p.id !== prompt.id);
        return answer(204);
      }
      if (call.method === 'PUT') {
        const body = call.body as Partial<Prompt>;
        const next = { ...prompt, ...body, updatedAt: '2026-01-03T10:00:00.000Z' } as Prompt;
        if (body.referenceImageUrl === null) delete next.referenceImageUrl;
        next.variables = parseTemplate(next.template).variables;
        return replace(next);
      }
    }
    if (match[2] && !match[3] && call.method === 'POST') {
      const urls = prompt.referenceImageUrls;
      return replace({
        ...prompt,
        referenceImageUrls: [...urls, `/api/prompts/${prompt.id}/reference-images/${urls.length}`],
      });
    }
    if (match[3] && call.method === 'DELETE') {
      const index = Number(match[3]);
      return replace({
        ...prompt,
        referenceImageUrls: prompt.referenceImageUrls.filter((_, i) => i !== index),
      });
    }
    return answer(404, 'Not found');
  };

  const fixed: Record<string, Handler> = {
    'GET /api/user': () => json(me),
    'GET /api/user/workspaces': () => json(workspaces),
    ...routes,
  };
  // Any other "METHOD /url" goes to the in-memory service above.
  const table = new Proxy(fixed, {
    get: (target, key) =>
      typeof key === 'string' && key in target ? target[key] : (call: StubCall) => handle(call),
  });
  const calls = stubApi(table);
  return { calls, state };
}

/** The calls other than GETs, as "METHOD url". */
export const writes = (calls: StubCall[]) =>
  calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.url}`);
