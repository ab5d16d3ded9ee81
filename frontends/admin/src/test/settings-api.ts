import {
  answer,
  buildUser,
  buildWorkspace,
  stubApi,
  type StubCall,
  type StubRoutes,
} from '@aict/web-kit/testing';

// A small in-memory server for the Settings screen's calls (SPEC §7 Users, Settings,
// Workspaces), stubbed at the fetch boundary. Each test starts from its own state and may
// override any route.

export type TestUser = ReturnType<typeof buildUser>;
export type TestWorkspace = ReturnType<typeof buildWorkspace>;

export const acme = buildWorkspace(1, 'Acme');
export const beta = buildWorkspace(2, 'Beta');

export const superAdmin = buildUser({
  id: 'sa',
  username: 'root admin',
  email: 'root@example.com',
  isSuperAdmin: true,
  workspaceRoles: { '1': 'admin' },
});
export const workspaceAdmin = buildUser({
  id: 'wa',
  username: 'wendy',
  email: 'wendy@example.com',
  workspaceRoles: { '1': 'admin' },
});
export const bob = buildUser({
  id: 'bob',
  username: 'bob',
  email: 'bob@example.com',
  workspaceRoles: { '1': 'user', '2': 'admin' },
});

export function settingsServer({
  me,
  users = [me, bob],
  workspaces = [acme, beta],
  apiKey = null,
  routes = {},
}: {
  me: TestUser;
  users?: TestUser[];
  workspaces?: TestWorkspace[];
  apiKey?: string | null;
  routes?: StubRoutes;
}) {
  const state = { users: [...users], workspaces: [...workspaces] };
  const json = (data: unknown, status = 200) => answer(status, data);
  const base: StubRoutes = {
    'GET /api/user': () => json(me),
    'GET /api/user/workspaces': () => json(state.workspaces),
    'GET /api/workspaces': () => json(state.workspaces),
    'GET /api/users': () => json(state.users),
    'GET /api/models/text': () => json(['gpt-4o', 'gpt-4-turbo', 'gpt-3.5-turbo']),
    'GET /api/models/image': () => json(['dall-e-3', 'gpt-image-1']),
    'GET /api/settings/default_text_model': () =>
      json({ key: 'default_text_model', value: 'gpt-4o' }),
    'GET /api/settings/default_image_model': () =>
      json({ key: 'default_image_model', value: 'dall-e-3' }),
    'GET /api/settings/openai_api_key': () =>
      json({ key: 'openai_api_key', value: apiKey, scope: 'global' }),
    'POST /api/users': (call: StubCall) => {
      const body = call.body as { username: string; email: string };
      const created = buildUser({ id: `new-${state.users.length}`, ...body, workspaceRoles: {} });
      state.users.push(created);
      return json(created, 201);
    },
  };
  for (const workspace of state.workspaces) {
    base[`GET /api/workspaces/${workspace.id}/settings/openai_api_key`] = () =>
      json({ key: 'openai_api_key', value: apiKey, scope: 'workspace' });
    // Issue 18: no brand voice unless a test says otherwise.
    base[`GET /api/workspaces/${workspace.id}/brand-voice`] = () =>
      json({
        workspaceId: workspace.id,
        tone: '',
        avoidWords: [],
        useWords: [],
        example: '',
        updatedAt: null,
      });
    base[`DELETE /api/workspaces/${workspace.id}`] = () => {
      state.workspaces = state.workspaces.filter((w) => w.id !== workspace.id);
      return answer(204);
    };
  }
  for (const user of state.users) {
    base[`GET /api/users/${user.id}/workspaces`] = () =>
      json(
        Object.entries(user.workspaceRoles).map(([workspaceId, role]) => ({
          workspaceId: Number(workspaceId),
          userId: user.id,
          role,
          workspaceName:
            state.workspaces.find((w) => String(w.id) === workspaceId)?.name ?? workspaceId,
        })),
      );
    base[`DELETE /api/users/${user.id}`] = () => {
      state.users = state.users.filter((u) => u.id !== user.id);
      return answer(204);
    };
  }
  const calls = stubApi({ ...base, ...routes });
  return { calls, state };
}

/** The calls other than GETs, as "METHOD url". */
export const writes = (calls: StubCall[]) =>
  calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.url}`);
