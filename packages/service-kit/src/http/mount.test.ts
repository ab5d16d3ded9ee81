import express, { Router } from 'express';
import { z } from 'zod';
import {
  CONTEXT_HEADER,
  IdParams,
  WORKSPACE_HEADER,
  WorkspaceId,
  type RouteDef,
} from '@aict/contracts';
import { signTestContext, TEST_CONTEXT_PUBLIC_PEM } from '../testing';
import { captureLogs } from '../test-support';
import { errorHandler } from './error-handler';
import { RESPONDED, routeMounter } from './mount';
import { startServer, type ServerHandle } from './server';

const Item = z.object({ id: z.string(), workspaceId: z.number().nullable(), name: z.string() });

const ROUTES = {
  get: {
    method: 'GET',
    path: '/api/items/:id',
    service: 'prompt',
    access: 'member',
    params: IdParams,
    query: z.object({
      workspaceId: WorkspaceId.optional(),
      upper: z.enum(['yes', 'no']).optional(),
    }),
    response: Item,
  },
  create: {
    method: 'POST',
    path: '/api/items',
    service: 'prompt',
    access: 'signed-in',
    status: 201,
    body: z.object({
      name: z.string().min(1, 'Name is required'),
      workspaceId: WorkspaceId.nullish(),
    }),
    response: Item,
  },
  remove: {
    method: 'DELETE',
    path: '/api/workspaces/:id/items',
    service: 'prompt',
    access: 'workspace-admin',
    workspaceParam: 'id',
    params: z.object({ id: WorkspaceId }),
    response: null,
  },
  everything: {
    method: 'GET',
    path: '/api/everything',
    service: 'prompt',
    access: 'super-admin',
    response: z.object({ ok: z.boolean() }),
  },
  mine: {
    method: 'GET',
    path: '/api/mine',
    service: 'prompt',
    access: 'signed-in',
    workspaceFree: true,
    response: z.object({ workspaceId: z.number().nullable() }),
  },
  invite: {
    method: 'POST',
    path: '/api/invites',
    service: 'prompt',
    access: 'workspace-admin',
    workspaceByUseCase: true,
    body: z.object({ workspaceId: WorkspaceId }),
    response: z.object({ named: z.number(), inView: z.number().nullable() }),
  },
  hello: {
    method: 'GET',
    path: '/api/hello',
    service: 'prompt',
    access: 'public',
    response: 'file',
  },
} as const satisfies Record<string, RouteDef>;

describe('routeMounter: a route mounted from its definition', () => {
  let server: ServerHandle;
  const calls: string[] = [];

  beforeAll(async () => {
    const app = express();
    const router = Router();
    const mount = routeMounter(router, { service: 'prompt', contextKey: TEST_CONTEXT_PUBLIC_PEM });
    mount(ROUTES.get, ({ params, query, workspaceId }) => ({
      id: params.id,
      workspaceId,
      name: query.upper === 'yes' ? 'ITEM' : 'item',
    }));
    mount(ROUTES.create, ({ body, workspaceId }) => {
      calls.push(`create ${body.name}`);
      return { id: 'new', workspaceId, name: body.name };
    });
    mount(ROUTES.remove, ({ params }) => {
      calls.push(`remove ${params.id}`);
    });
    mount(ROUTES.everything, () => ({ ok: true }));
    mount(ROUTES.mine, ({ workspaceId }) => ({ workspaceId }));
    mount(ROUTES.invite, ({ body, workspaceId }) => ({
      named: body.workspaceId,
      inView: workspaceId,
    }));
    mount(ROUTES.hello, ({ res }) => {
      res.type('text/plain').send('hello');
      return RESPONDED;
    });
    app.use(router);
    app.use(errorHandler(captureLogs().logger));
    server = await startServer(app, { port: 0 });
  });
  afterAll(() => server.close());
  beforeEach(() => calls.splice(0));

  const member = signTestContext({ uid: 'u1', roles: { 3: 'user', 4: 'admin' } });
  const call = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(options.token ? { [CONTEXT_HEADER]: options.token } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: res.headers.get('content-type')?.includes('json')
        ? (JSON.parse(text) as Record<string, unknown>)
        : null,
      text,
    };
  };

  it('when a member reads with a valid id and workspace, then the handler gets the parsed input and its answer is sent', async () => {
    const res = await call('GET', '/api/items/abc?workspaceId=3&upper=yes', { token: member });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'abc', workspaceId: 3, name: 'ITEM' });
  });

  it('when params and query are both wrong, then it is 400 naming every problem, before the handler', async () => {
    const res = await call('GET', '/api/items/bad$id?workspaceId=3&upper=maybe', { token: member });

    expect(res.status).toBe(400);
    expect(res.body?.code).toBe('VALIDATION.FAILED');
    const paths = (res.body?.details as Array<{ path: string }>).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['id', 'upper']));
  });

  it('when a member route names no workspace, then it is 400 asking for one', async () => {
    const res = await call('GET', '/api/items/abc', { token: member });

    expect(res.status).toBe(400);
    expect(res.body?.message).toBe('Select a workspace first.');
  });

  it('when the request names a workspace the caller is not in (query or header), then it is 404', async () => {
    expect((await call('GET', '/api/items/abc?workspaceId=9', { token: member })).status).toBe(404);
    const byHeader = await call('GET', '/api/items/abc', {
      token: member,
      headers: { [WORKSPACE_HEADER]: '9' },
    });
    expect(byHeader.status).toBe(404);
    expect(byHeader.body?.code).toBe('WORKSPACE.NOT_FOUND');
  });

  it('when the header names a workspace, then it is the workspace in view; a malformed one is 400', async () => {
    const ok = await call('GET', '/api/items/abc', {
      token: member,
      headers: { [WORKSPACE_HEADER]: '3' },
    });
    expect(ok.body?.workspaceId).toBe(3);

    const bad = await call('GET', '/api/items/abc', {
      token: member,
      headers: { [WORKSPACE_HEADER]: 'x' },
    });
    expect(bad.status).toBe(400);
  });

  it("when a body names the workspace, then it comes before the header, and the answer has the definition's status", async () => {
    const res = await call('POST', '/api/items', {
      token: member,
      body: { name: 'n', workspaceId: 4 },
      headers: { [WORKSPACE_HEADER]: '3' },
    });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 'new', workspaceId: 4, name: 'n' });
  });

  it('when a body is invalid or missing, then it is 400 and nothing is done', async () => {
    expect((await call('POST', '/api/items', { token: member, body: { name: '' } })).status).toBe(
      400,
    );
    const missing = await call('POST', '/api/items', { token: member });
    expect(missing.status).toBe(400);
    expect(missing.body?.details).toEqual([expect.objectContaining({ path: 'name' })]);
    expect(calls).toEqual([]);
  });

  it('when there is no signed context, then it is 401 and nothing is done', async () => {
    expect((await call('POST', '/api/items', { body: { name: 'n' } })).status).toBe(401);
    const signedOut = signTestContext({ uid: null });
    expect(
      (await call('POST', '/api/items', { token: signedOut, body: { name: 'n' } })).status,
    ).toBe(401);
    expect(calls).toEqual([]);
  });

  it('when the path names the workspace, then only its admins may act, and a route without a body answers 204', async () => {
    expect((await call('DELETE', '/api/workspaces/3/items', { token: member })).status).toBe(403);
    expect((await call('DELETE', '/api/workspaces/9/items', { token: member })).status).toBe(404);
    const done = await call('DELETE', '/api/workspaces/4/items', { token: member });

    expect(done.status).toBe(204);
    expect(calls).toEqual(['remove 4']);
  });

  it('when a super-admin route is called by anyone else, then it is 403', async () => {
    expect((await call('GET', '/api/everything', { token: member })).status).toBe(403);
    const sa = signTestContext({ uid: 'root', sa: true });
    expect((await call('GET', '/api/everything', { token: sa })).body).toEqual({ ok: true });
  });

  it('when a workspace-free route is called with a workspace the caller has left, then it still answers', async () => {
    const res = await call('GET', '/api/mine', {
      token: member,
      headers: { [WORKSPACE_HEADER]: '9' },
    });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workspaceId: null });
  });

  it("when the workspace a body names is the use case's to check, then the mount leaves it to the use case", async () => {
    const res = await call('POST', '/api/invites', { token: member, body: { workspaceId: 9 } });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ named: 9, inView: null });
    const nobody = signTestContext({ uid: 'u2', roles: { 3: 'user' } });
    expect(
      (await call('POST', '/api/invites', { token: nobody, body: { workspaceId: 3 } })).status,
    ).toBe(403);
  });

  it('when a handler writes its own answer, then the mount sends nothing more', async () => {
    const res = await call('GET', '/api/hello', { token: signTestContext({ uid: null }) });

    expect(res.status).toBe(200);
    expect(res.text).toBe('hello');
  });

  it("when a service mounts another service's route, then it fails at start-up", () => {
    const mount = routeMounter(Router(), { service: 'auth', contextKey: TEST_CONTEXT_PUBLIC_PEM });

    expect(() => mount(ROUTES.everything, () => ({ ok: true }))).toThrow(
      /belongs to the prompt service/,
    );
  });
});
