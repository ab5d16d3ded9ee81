import { newUserId, startHarness, superAdmin, type Harness } from '../test-support/harness';

jest.setTimeout(30_000);

// Every route of this service that names an id in its path, called as a super admin (who
// may do anything) with ids of the wrong shape: workspace ids are positive integers, user
// ids UUIDs. None may answer 2xx (an empty list, a membership of nobody) or 500.

let t: Harness;
const sa = superAdmin();

beforeAll(async () => {
  t = await startHarness();
});
afterAll(() => t.stop());

const MALFORMED_WORKSPACE_IDS = ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999'];
const MALFORMED_USER_IDS = [
  'not-a-user',
  '123',
  'a'.repeat(64),
  '00000000-0000-0000-0000-00000000000g',
];

interface Route {
  method: string;
  path: (id: string) => string;
  body?: unknown;
}

const WORKSPACE_ROUTES: Route[] = [
  { method: 'PATCH', path: (id) => `/api/workspaces/${id}`, body: { name: 'Renamed' } },
  { method: 'DELETE', path: (id) => `/api/workspaces/${id}` },
  { method: 'GET', path: (id) => `/api/workspaces/${id}/logo` },
  { method: 'GET', path: (id) => `/api/workspaces/${id}/settings/openai_api_key` },
  {
    method: 'PUT',
    path: (id) => `/api/workspaces/${id}/settings/openai_api_key`,
    body: { value: 'sk-test-123456' },
  },
  { method: 'DELETE', path: (id) => `/api/workspaces/${id}/settings/openai_api_key` },
  { method: 'GET', path: (id) => `/api/workspaces/${id}/settings/openai_base_url` },
  {
    method: 'POST',
    path: (id) => `/api/workspaces/${id}/users`,
    body: { userId: newUserId(), role: 'user' },
  },
  {
    method: 'PATCH',
    path: (id) => `/api/workspaces/${id}/users/${newUserId()}`,
    body: { role: 'user' },
  },
  { method: 'DELETE', path: (id) => `/api/workspaces/${id}/users/${newUserId()}` },
];

const USER_ROUTES: Route[] = [
  { method: 'GET', path: (id) => `/api/users/${id}/workspaces` },
  { method: 'PATCH', path: (id) => `/api/workspaces/1/users/${id}`, body: { role: 'user' } },
  { method: 'DELETE', path: (id) => `/api/workspaces/1/users/${id}` },
];

async function statusesOf(routes: Route[], id: string, bodyFor?: (id: string) => unknown) {
  const statuses: string[] = [];
  for (const { method, path, body } of routes) {
    const res = await t.call(method, path(id), { as: sa, body: body ?? bodyFor?.(id) });
    statuses.push(`${method} ${path(id)}: ${res.status}`);
  }
  return statuses;
}

const refused = (line: string) => / (400|404)$/.test(line);

describe('malformed ids', () => {
  it.each(MALFORMED_WORKSPACE_IDS)(
    'when a workspace route is called with workspace id %p, then 400 or 404 on every one',
    async (id) => {
      const statuses = await statusesOf(WORKSPACE_ROUTES, id);

      expect(statuses.filter((line) => !refused(line))).toEqual([]);
    },
  );

  it.each(MALFORMED_USER_IDS)(
    'when a user route is called with user id %p, then 400 or 404 on every one',
    async (id) => {
      const statuses = await statusesOf(USER_ROUTES, id);
      const added = await t.call('POST', '/api/workspaces/1/users', {
        as: sa,
        body: { userId: id, role: 'user' },
      });
      statuses.push(`POST /api/workspaces/1/users {userId: ${id}}: ${added.status}`);

      expect(statuses.filter((line) => !refused(line))).toEqual([]);
    },
  );
});
