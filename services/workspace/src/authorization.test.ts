/**
 * The authorisation matrix: every route of the service × every kind of caller, with the
 * exact status of each cell. Each cell arranges its own workspaces, so no cell depends on
 * another. Another tenant's workspace answers 404 (it is not revealed); a member without
 * the needed role gets 403.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Workspace } from '@aict/contracts';
import {
  member,
  newUserId,
  startHarness,
  superAdmin,
  uniqueName,
  type Caller,
  type Harness,
} from './test-support/harness';

jest.setTimeout(60_000);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type CallerKind =
  'signed out' | 'user' | 'admin of this workspace' | 'admin of another workspace' | 'super admin';
const CALLERS: CallerKind[] = [
  'signed out',
  'user',
  'admin of this workspace',
  'admin of another workspace',
  'super admin',
];

interface Fixture {
  /** The workspace the route names. */
  ws: number;
  /** The other caller's workspace. */
  other: number;
  /** A member (role user) of `ws`. */
  target: string;
}

interface Row {
  route: string;
  needsLogo?: boolean;
  /** A cell changes what the next would see (a deletion): each cell arranges its own data. */
  consumes?: boolean;
  request: (f: Fixture) => { method: string; path: string; body?: unknown; form?: () => FormData };
  /** Statuses for: signed out, user, admin of this workspace, admin of another, super admin. */
  expected: [number, number, number, number, number];
}

const logoForm = () => {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'logo.png');
  return form;
};

const ROWS: Row[] = [
  {
    route: 'GET /api/user/workspaces',
    request: () => ({ method: 'GET', path: '/api/user/workspaces' }),
    expected: [401, 200, 200, 200, 200],
  },
  {
    route: 'GET /api/workspaces',
    request: () => ({ method: 'GET', path: '/api/workspaces' }),
    expected: [401, 403, 403, 403, 200],
  },
  {
    route: 'POST /api/workspaces',
    request: () => ({ method: 'POST', path: '/api/workspaces', body: { name: uniqueName() } }),
    expected: [401, 403, 403, 403, 201],
  },
  {
    route: 'PATCH /api/workspaces/:id',
    request: (f) => ({
      method: 'PATCH',
      path: `/api/workspaces/${f.ws}`,
      body: { name: uniqueName() },
    }),
    expected: [401, 403, 403, 404, 200],
  },
  {
    route: 'DELETE /api/workspaces/:id',
    consumes: true,
    request: (f) => ({ method: 'DELETE', path: `/api/workspaces/${f.ws}` }),
    expected: [401, 403, 403, 404, 204],
  },
  {
    route: 'DELETE /api/workspaces/1',
    request: () => ({ method: 'DELETE', path: '/api/workspaces/1' }),
    expected: [401, 404, 404, 404, 400],
  },
  {
    route: 'POST /api/workspaces/:workspaceId/users',
    request: (f) => ({
      method: 'POST',
      path: `/api/workspaces/${f.ws}/users`,
      body: { userId: newUserId(), role: 'user' },
    }),
    // A user in no workspace: a workspace admin may not pull them in (only users they administer).
    expected: [401, 403, 403, 404, 201],
  },
  {
    route: 'PATCH /api/workspaces/:workspaceId/users/:userId',
    request: (f) => ({
      method: 'PATCH',
      path: `/api/workspaces/${f.ws}/users/${f.target}`,
      body: { role: 'admin' },
    }),
    expected: [401, 403, 200, 404, 200],
  },
  {
    route: 'DELETE /api/workspaces/:workspaceId/users/:userId',
    consumes: true,
    request: (f) => ({ method: 'DELETE', path: `/api/workspaces/${f.ws}/users/${f.target}` }),
    expected: [401, 403, 204, 404, 204],
  },
  {
    route: 'GET /api/users/:id/workspaces',
    request: (f) => ({ method: 'GET', path: `/api/users/${f.target}/workspaces` }),
    expected: [401, 403, 200, 200, 200],
  },
  {
    route: 'POST /api/workspaces/:id/logo',
    request: (f) => ({ method: 'POST', path: `/api/workspaces/${f.ws}/logo`, form: logoForm }),
    expected: [401, 403, 403, 404, 200],
  },
  {
    route: 'GET /api/workspaces/:id/logo',
    needsLogo: true,
    request: (f) => ({ method: 'GET', path: `/api/workspaces/${f.ws}/logo` }),
    expected: [401, 200, 200, 404, 200],
  },
  ...(['openai_api_key', 'openai_base_url'] as const).flatMap((key): Row[] => {
    const value = key === 'openai_api_key' ? 'sk-matrix-key-123456' : 'http://127.0.0.1:9/v1';
    return [
      {
        route: `GET /api/workspaces/:id/settings/${key}`,
        request: (f) => ({ method: 'GET', path: `/api/workspaces/${f.ws}/settings/${key}` }),
        expected: [401, 403, 200, 404, 200],
      },
      {
        route: `PUT /api/workspaces/:id/settings/${key}`,
        request: (f) => ({
          method: 'PUT',
          path: `/api/workspaces/${f.ws}/settings/${key}`,
          body: { value },
        }),
        expected: [401, 403, 200, 404, 200],
      },
      {
        route: `DELETE /api/workspaces/:id/settings/${key}`,
        request: (f) => ({ method: 'DELETE', path: `/api/workspaces/${f.ws}/settings/${key}` }),
        expected: [401, 403, 204, 404, 204],
      },
      {
        route: `GET /api/settings/${key}`,
        request: () => ({ method: 'GET', path: `/api/settings/${key}` }),
        expected: [401, 403, 403, 403, 200],
      },
      {
        route: `PUT /api/settings/${key}`,
        request: () => ({ method: 'PUT', path: `/api/settings/${key}`, body: { value } }),
        expected: [401, 403, 403, 403, 200],
      },
      {
        route: `DELETE /api/settings/${key}`,
        request: () => ({ method: 'DELETE', path: `/api/settings/${key}` }),
        expected: [401, 403, 403, 403, 204],
      },
    ];
  }),
  ...(['text', 'image'] as const).flatMap((kind): Row[] => [
    {
      route: `GET /api/settings/default_${kind}_model`,
      request: () => ({ method: 'GET', path: `/api/settings/default_${kind}_model` }),
      expected: [401, 200, 200, 200, 200],
    },
    {
      // With X-Workspace-ID: that workspace's default (its admins); without: the global one.
      route: `PUT /api/settings/default_${kind}_model`,
      request: () => ({
        method: 'PUT',
        path: `/api/settings/default_${kind}_model`,
        body: { value: kind === 'text' ? 'gpt-4-turbo' : 'gpt-image-1' },
      }),
      expected: [401, 403, 200, 200, 200],
    },
    {
      route: `GET /api/models/${kind}`,
      request: () => ({ method: 'GET', path: `/api/models/${kind}` }),
      expected: [401, 200, 200, 200, 200],
    },
  ]),
  {
    route: 'POST /api/test-openai-connection { workspaceId }',
    request: (f) => ({
      method: 'POST',
      path: '/api/test-openai-connection',
      body: { workspaceId: f.ws },
    }),
    expected: [401, 403, 200, 404, 200],
  },
  {
    route: 'POST /api/test-openai-connection (global)',
    request: () => ({ method: 'POST', path: '/api/test-openai-connection', body: {} }),
    expected: [401, 403, 403, 403, 200],
  },
];

let t: Harness;
const sa = superAdmin();

beforeAll(async () => {
  // The connection test must fail fast: the provider is a port nobody listens on.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  t = await startHarness({
    OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
    // The base URL the matrix saves (a port nobody listens on).
    PROVIDER_URL_ALLOWED_ORIGINS: 'http://127.0.0.1:9',
  });
});
afterAll(() => t.stop());

async function arrange(row: Row): Promise<Fixture> {
  const create = async () => {
    const res = await t.call('POST', '/api/workspaces', {
      as: sa,
      body: { name: uniqueName('Matrix') },
    });
    expect(res.status).toBe(201);
    return (res.body as Workspace).id;
  };
  const [ws, other] = await Promise.all([create(), create()]);
  const target = newUserId();
  const added = await t.call('POST', `/api/workspaces/${ws}/users`, {
    as: sa,
    body: { userId: target, role: 'user' },
  });
  expect(added.status).toBe(201);
  if (row.needsLogo) {
    const logo = await t.call('POST', `/api/workspaces/${ws}/logo`, { as: sa, form: logoForm() });
    expect(logo.status).toBe(200);
  }
  return { ws, other, target };
}

function callerOf(kind: CallerKind, f: Fixture): Caller {
  switch (kind) {
    case 'signed out':
      return { uid: null, sa: false, roles: {}, ws: null };
    case 'user':
      return member({ [f.ws]: 'user' });
    case 'admin of this workspace':
      return member({ [f.ws]: 'admin' });
    case 'admin of another workspace':
      return member({ [f.other]: 'admin' });
    case 'super admin':
      return superAdmin();
  }
}

describe.each(ROWS.map((row) => [row.route, row] as const))('%s', (_route, row) => {
  let shared: Fixture | undefined;
  beforeAll(async () => {
    if (!row.consumes) shared = await arrange(row);
  });

  it.each(CALLERS.map((kind, i) => [kind, row.expected[i]!] as const))(
    'when the caller is %s, then it answers %i',
    async (kind, status) => {
      const fixture = shared ?? (await arrange(row));
      const { method, path, body, form } = row.request(fixture);

      const res = await t.call(method, path, { as: callerOf(kind, fixture), body, form: form?.() });

      expect({ status: res.status, body: res.status >= 400 ? res.body : undefined }).toEqual({
        status,
        body: status >= 400 ? expect.objectContaining({ code: expect.any(String) }) : undefined,
      });
    },
  );
});

it('when the context is forged (signed by another key), expired or missing, then 401', async () => {
  const { generateKeyPairSync } = await import('node:crypto');
  const { signContext } = await import('@aict/service-kit');
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const claims = {
    uid: 'u1',
    sa: true,
    roles: {},
    ws: null,
    role: null,
    rid: 'r',
    ip: '127.0.0.1',
  };
  const forged = signContext(privateKey, claims);
  const { signTestContext } = await import('@aict/service-kit/testing');
  const expired = signTestContext({ uid: 'u1', sa: true }, -10);

  for (const token of [forged, expired, 'not-a-jwt']) {
    const res = await fetch(`${t.url}/api/workspaces`, { headers: { 'x-aict-context': token } });
    expect(res.status).toBe(401);
  }
});
