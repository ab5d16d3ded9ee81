import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  apiPath,
  CONTEXT_HEADER,
  ErrorCode,
  isWorkspaceFree,
  ROUTES,
  type RouteDef,
  SESSION_COOKIE,
  type TrustedContext,
} from '@aict/contracts';
import { IdentityState } from '../identity/identity-state';
import { authorize, type AccessDeps } from './authorize';
import type { ContextSigner } from './context-signer';
import type { SessionVerifier } from './session';

// Alice is a member of workspace 1 only; workspace 9 is someone else's.
const ALICE = 'alice';

function deps(): AccessDeps {
  const state = new IdentityState();
  state.load(
    { users: [{ id: ALICE, tokenVersion: 0, isSuperAdmin: false }], revokedSessions: [] },
    { memberships: [{ workspaceId: 1, userId: ALICE, role: 'user' }] },
  );
  return {
    state,
    sessions: {
      authenticate: (token?: string) =>
        token ? { uid: ALICE, sid: 's1', isSuperAdmin: false } : null,
    } as unknown as SessionVerifier,
    // The context in clear, so that the test can read what the service would get.
    contexts: {
      sign: (_key: string, context: () => TrustedContext) => JSON.stringify(context()),
    } as unknown as ContextSigner,
    clientAddress: () => '127.0.0.1',
  };
}

interface Outcome {
  passed: boolean;
  status?: number;
  code?: string;
  ws?: number | null;
}

async function call(method: string, url: string, workspaceHeader: string): Promise<Outcome> {
  const req = {
    method,
    url,
    headers: {
      cookie: `${SESSION_COOKIE}=token`,
      'x-workspace-id': workspaceHeader,
      'x-request-id': 'r1',
    },
  } as unknown as IncomingMessage;
  let status: number | undefined;
  let body = '';
  const res = {
    writeHead: (s: number) => {
      status = s;
    },
    end: (b: string) => {
      body = b;
    },
  } as unknown as ServerResponse;
  const passed = await authorize(req, res, deps());
  if (!passed) return { passed, status, code: (JSON.parse(body) as { code: string }).code };
  const context = JSON.parse(String(req.headers[CONTEXT_HEADER])) as TrustedContext;
  return { passed, ws: context.ws };
}

const sample = (route: RouteDef) =>
  apiPath(route.path, {
    id: '7',
    workspaceId: '7',
    userId: 'u',
    index: 0,
    n: '0',
    contentId: 'c',
    version: 1,
  });

/** Every method a caller may use on a table route (HEAD with each GET). */
const CALLS = ROUTES.flatMap((route) =>
  (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]).map(
    (method) => [`${method} ${route.path}`, method, route] as const,
  ),
);

describe('authorize: the workspace a request names', () => {
  it.each(CALLS)(
    'when %s names a workspace the caller is not a member of, then the gateway decides as the table says',
    async (_name, method, route) => {
      const outcome = await call(method, sample(route), '9');

      expect(outcome).toEqual(
        isWorkspaceFree(route)
          ? { passed: true, ws: null }
          : { passed: false, status: 403, code: ErrorCode.WORKSPACE_FORBIDDEN },
      );
    },
  );

  it.each(CALLS)(
    'when %s names a malformed workspace id, then the gateway decides as the table says',
    async (_name, method, route) => {
      const outcome = await call(method, sample(route), 'abc');

      expect(outcome).toEqual(
        isWorkspaceFree(route)
          ? { passed: true, ws: null }
          : { passed: false, status: 400, code: ErrorCode.VALIDATION_FAILED },
      );
    },
  );

  it.each([
    ['GET', '/api/user/workspaces'],
    ['HEAD', '/api/user/workspaces'],
    ['PATCH', '/api/user'],
    ['GET', '/api/user'],
    ['POST', '/api/logout'],
  ])(
    'when %s %s names a workspace the caller left, then it still answers (so they can choose again)',
    async (method, path) => {
      expect(await call(method, path, '9')).toEqual({ passed: true, ws: null });
    },
  );

  it('when a workspace route names a workspace of the caller, then it is the one in view', async () => {
    const prompts = ROUTES.find((route) => route.path === '/api/prompts' && route.method === 'GET');

    expect(prompts && isWorkspaceFree(prompts)).toBe(false);
    expect(await call('GET', '/api/prompts', '1')).toEqual({ passed: true, ws: 1 });
  });
});
