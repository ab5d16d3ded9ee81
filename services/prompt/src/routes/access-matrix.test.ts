import { randomUUID } from 'node:crypto';
import {
  adminOf,
  buildImagePrompt,
  newWorkspaceId,
  startHarness,
  type CallResult,
  type Caller,
  type Harness,
} from '../test-support/harness';
import { pngImage, referenceForm } from '../test-support/images';

// The authorisation matrix of issue 5: every prompt route × every kind of caller, with the
// exact status of each cell. Callers come as the gateway would send them: a signed context
// whose current workspace (`ws`) is the workspace the request names.

jest.setTimeout(120_000);

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 90_000);
afterAll(() => h?.stop(), 60_000);

const WHO = [
  'signed out',
  'user',
  'prompt owner',
  'admin of this workspace',
  'admin of another workspace',
  'super admin',
] as const;
type Who = (typeof WHO)[number];

/** A workspace with an image prompt (gpt-image-1), its default, holding one reference image. */
interface Fixture {
  ws: number;
  ownerId: string;
  promptId: string;
  imageUrl: string;
}

async function fixture(): Promise<Fixture> {
  const ws = newWorkspaceId();
  const owner = adminOf(ws);
  const created = await h.call('POST', '/api/prompts', {
    as: owner,
    body: buildImagePrompt({ workspaceId: ws, isDefault: true }),
  });
  expect(created.status).toBe(201);
  const uploaded = await h.call('POST', `/api/prompts/${created.body.id}/reference-image`, {
    as: owner,
    form: referenceForm(await pngImage()),
    headers: { 'x-workspace-id': String(ws) },
  });
  expect(uploaded.status).toBe(200);
  return {
    ws,
    ownerId: owner!.uid!,
    promptId: created.body.id,
    imageUrl: uploaded.body.referenceImageUrls[0],
  };
}

function caller(who: Who, f: Fixture): Caller {
  switch (who) {
    case 'signed out':
      return null;
    case 'user':
      return { uid: `u-${randomUUID()}`, sa: false, roles: { [f.ws]: 'user' }, ws: f.ws };
    case 'prompt owner':
      // The creator, since demoted to a plain user: their rights come from owning the prompt.
      return { uid: f.ownerId, sa: false, roles: { [f.ws]: 'user' }, ws: f.ws };
    case 'admin of this workspace':
      return { uid: `u-${randomUUID()}`, sa: false, roles: { [f.ws]: 'admin' }, ws: f.ws };
    case 'admin of another workspace':
      return {
        uid: `u-${randomUUID()}`,
        sa: false,
        roles: { [newWorkspaceId()]: 'admin' },
        ws: f.ws,
        role: null,
      };
    case 'super admin':
      return { uid: `sa-${randomUUID()}`, sa: true, roles: {}, ws: f.ws };
  }
}

interface Route {
  name: string;
  /** Whether a successful answer is a prompt (then the template shows to admins only). */
  answersPrompt: boolean;
  call: (f: Fixture, as: Caller) => Promise<CallResult>;
}

const header = (f: Fixture) => ({ 'x-workspace-id': String(f.ws) });

const ROUTES: Record<string, Route> = {
  list: {
    name: 'GET /api/prompts',
    answersPrompt: false,
    call: (f, as) => h.call('GET', `/api/prompts?workspaceId=${f.ws}`, { as }),
  },
  getDefault: {
    name: 'GET /api/prompts/default',
    answersPrompt: false,
    call: (f, as) => h.call('GET', `/api/prompts/default?workspaceId=${f.ws}`, { as }),
  },
  get: {
    name: 'GET /api/prompts/:id',
    answersPrompt: true,
    call: (f, as) => h.call('GET', `/api/prompts/${f.promptId}?workspaceId=${f.ws}`, { as }),
  },
  create: {
    name: 'POST /api/prompts',
    answersPrompt: true,
    call: (f, as) =>
      h.call('POST', '/api/prompts', { as, body: buildImagePrompt({ workspaceId: f.ws }) }),
  },
  update: {
    name: 'PUT /api/prompts/:id',
    answersPrompt: true,
    call: (f, as) =>
      h.call('PUT', `/api/prompts/${f.promptId}`, {
        as,
        body: { name: 'Edited', workspaceId: f.ws },
      }),
  },
  remove: {
    name: 'DELETE /api/prompts/:id',
    answersPrompt: false,
    call: (f, as) => h.call('DELETE', `/api/prompts/${f.promptId}?workspaceId=${f.ws}`, { as }),
  },
  upload: {
    name: 'POST /api/prompts/:id/reference-image',
    answersPrompt: true,
    call: async (f, as) =>
      h.call('POST', `/api/prompts/${f.promptId}/reference-image`, {
        as,
        form: referenceForm(await pngImage(5, 5)),
        headers: header(f),
      }),
  },
  removeImage: {
    name: 'DELETE /api/prompts/:id/reference-image/:index',
    answersPrompt: true,
    call: (f, as) =>
      h.call('DELETE', `/api/prompts/${f.promptId}/reference-image/0`, {
        as,
        headers: header(f),
      }),
  },
  image: {
    name: 'GET /api/prompts/:id/reference-images/:n',
    answersPrompt: false,
    call: (f, as) => h.call('GET', `${f.imageUrl}?workspaceId=${f.ws}`, { as }),
  },
};

//                      signed out  user  owner  admin here  admin elsewhere  super admin
const MATRIX: Array<[keyof typeof ROUTES, [number, number, number, number, number, number]]> = [
  ['list', /*          */ [401, 200, 200, 200, 404, 200]],
  ['getDefault', /*    */ [401, 200, 200, 200, 404, 200]],
  ['get', /*           */ [401, 200, 200, 200, 404, 200]],
  ['create', /*        */ [401, 403, 403, 201, 404, 201]],
  ['update', /*        */ [401, 403, 200, 200, 404, 200]],
  ['remove', /*        */ [401, 403, 204, 204, 404, 204]],
  ['upload', /*        */ [401, 403, 200, 200, 404, 200]],
  ['removeImage', /*   */ [401, 403, 200, 200, 404, 200]],
  ['image', /*         */ [401, 200, 200, 200, 404, 200]],
];

const CELLS = MATRIX.flatMap(([route, statuses]) =>
  WHO.map((who, i) => [ROUTES[route]!.name, who, statuses[i]!, route] as const),
);

const isAdmin = (who: Who) => who === 'admin of this workspace' || who === 'super admin';

describe('authorisation matrix', () => {
  it.each(CELLS)('%s as %s answers %i', async (_name, who, status, route) => {
    const f = await fixture();

    const res = await ROUTES[route]!.call(f, caller(who, f));

    expect(res.status).toBe(status);
    if (status < 300 && ROUTES[route]!.answersPrompt) {
      // The template (and the reference images) only for admins, on every route.
      expect('template' in res.body).toBe(isAdmin(who));
      expect('referenceImageUrls' in res.body).toBe(isAdmin(who));
    }
    if (status < 300 && route === 'list') {
      expect((res.body as object[]).every((p) => !('template' in p))).toBe(true);
    }
  });

  it('when the context is signed but signed out (uid null), then every route answers 401', async () => {
    const f = await fixture();
    const signedOut: Caller = { uid: null, sa: false, roles: {}, ws: f.ws };

    for (const route of Object.values(ROUTES)) {
      expect([route.name, (await route.call(f, signedOut)).status]).toEqual([route.name, 401]);
    }
  });

  it('when an admin of another workspace names their own workspace, then the prompt is still 404 on every route that takes its id', async () => {
    const f = await fixture();
    const elsewhere = newWorkspaceId();
    const as = adminOf(elsewhere);
    const own = `workspaceId=${elsewhere}`;
    const headers = { 'x-workspace-id': String(elsewhere) };

    const answers = await Promise.all([
      h.call('GET', `/api/prompts/${f.promptId}?${own}`, { as }),
      h.call('PUT', `/api/prompts/${f.promptId}?${own}`, { as, body: { name: 'x' } }),
      h.call('DELETE', `/api/prompts/${f.promptId}?${own}`, { as }),
      h.call('POST', `/api/prompts/${f.promptId}/reference-image`, {
        as,
        form: referenceForm(await pngImage()),
        headers,
      }),
      h.call('DELETE', `/api/prompts/${f.promptId}/reference-image/0`, { as, headers }),
      h.call('GET', `${f.imageUrl}?${own}`, { as }),
    ]);

    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(answers.map((a) => a.body.code)).toEqual(Array(6).fill('PROMPT.NOT_FOUND'));
  });

  it('when a context is forged (signed by another key), then 401', async () => {
    const f = await fixture();
    const forged = 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOiJ4Iiwic2EiOnRydWV9.c2lnbmF0dXJl';

    const res = await h.call('GET', `/api/prompts?workspaceId=${f.ws}`, {
      as: null,
      headers: { 'x-aict-context': forged },
    });

    expect(res.status).toBe(401);
  });
});
