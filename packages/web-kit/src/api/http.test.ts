import { ApiError, apiJson, apiRequest, errorMessage, getQueryFn } from './http';

// SPEC §7 "Common behaviour" and the §8 error format, against a stubbed fetch.

type Call = { url: string; init: RequestInit };

function stubFetch(response: () => Response) {
  const calls: Call[] = [];
  globalThis.fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return response();
  }) as typeof fetch;
  return calls;
}

function stubStorage(values: Record<string, string>) {
  (globalThis as { window?: unknown }).window = {
    localStorage: {
      getItem: (key: string) => values[key] ?? null,
      setItem: (key: string, value: string) => (values[key] = value),
      removeItem: (key: string) => delete values[key],
    },
  };
}

const headersOf = (call: Call) => new Headers(call.init.headers as Record<string, string>);
const queryContext = (key: readonly unknown[]) =>
  ({ queryKey: key, signal: new AbortController().signal, meta: undefined }) as never;

beforeEach(() => stubStorage({}));

describe('apiRequest', () => {
  it('when a body is given, then it is sent as JSON with credentials', async () => {
    const calls = stubFetch(() => Response.json({ ok: true }));
    await apiRequest('POST', '/api/login', { username: 'a', password: 'b' });
    expect(calls[0]!.init.credentials).toBe('include');
    expect(calls[0]!.init.method).toBe('POST');
    expect(headersOf(calls[0]!).get('content-type')).toBe('application/json');
    expect(calls[0]!.init.body).toBe('{"username":"a","password":"b"}');
  });

  it('when no body is given, then no content type is set', async () => {
    const calls = stubFetch(() => new Response(null, { status: 204 }));
    await apiRequest('POST', '/api/logout');
    expect(headersOf(calls[0]!).has('content-type')).toBe(false);
    expect(calls[0]!.init.body).toBeUndefined();
  });

  it('when the body is FormData, then it goes as multipart without a JSON content type', async () => {
    const calls = stubFetch(() => Response.json({}));
    const form = new FormData();
    form.append('logo', 'x');
    await apiRequest('POST', '/api/workspaces/1/logo', form);
    expect(calls[0]!.init.body).toBe(form);
    expect(headersOf(calls[0]!).has('content-type')).toBe(false);
  });

  it('when a workspace id is stored, then X-Workspace-ID carries it', async () => {
    stubStorage({ currentWorkspaceId: '7' });
    const calls = stubFetch(() => Response.json([]));
    await apiRequest('GET', '/api/contents');
    expect(headersOf(calls[0]!).get('x-workspace-id')).toBe('7');
  });

  it('when no workspace id is stored, then no workspace header is sent', async () => {
    const calls = stubFetch(() => Response.json([]));
    await apiRequest('GET', '/api/contents');
    expect(headersOf(calls[0]!).has('x-workspace-id')).toBe(false);
  });

  it('when the answer is not OK, then the error reads "status: body"', async () => {
    stubFetch(() => new Response('{"code":"X","message":"Name is required"}', { status: 400 }));
    const error = await apiJson('POST', '/api/workspaces', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('400: {"code":"X","message":"Name is required"}');
    expect((error as ApiError).status).toBe(400);
    expect(errorMessage(error)).toBe('Name is required');
  });

  it('when the failing answer has no body, then the error reads "status: statusText"', async () => {
    stubFetch(() => new Response(null, { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiRequest('GET', '/api/user')).rejects.toThrow('503: Service Unavailable');
  });

  it('when a request fails, then fetch is called once (no retries)', async () => {
    const calls = stubFetch(() => new Response('boom', { status: 500 }));
    await expect(apiRequest('GET', '/api/user')).rejects.toThrow('500: boom');
    expect(calls).toHaveLength(1);
  });
});

describe('getQueryFn', () => {
  it('when called, then it GETs the first element of the query key and parses JSON', async () => {
    stubStorage({ currentWorkspaceId: '3' });
    const calls = stubFetch(() => Response.json([{ id: 1 }]));
    const data = await getQueryFn({ on401: 'throw' })(
      queryContext(['/api/prompts?workspaceId=3', 'x']),
    );
    expect(data).toEqual([{ id: 1 }]);
    expect(calls[0]!.url).toBe('/api/prompts?workspaceId=3');
    expect(calls[0]!.init.method).toBeUndefined(); // GET
    expect(calls[0]!.init.credentials).toBe('include');
    expect(headersOf(calls[0]!).get('x-workspace-id')).toBe('3');
  });

  it("when the answer is 401 in 'returnNull' mode, then the result is null", async () => {
    stubFetch(() => new Response('Not signed in', { status: 401, statusText: 'Unauthorized' }));
    await expect(
      getQueryFn({ on401: 'returnNull' })(queryContext(['/api/user'])),
    ).resolves.toBeNull();
  });

  it("when the answer is 401 in 'throw' mode, then it is an error", async () => {
    stubFetch(() => new Response('', { status: 401, statusText: 'Unauthorized' }));
    await expect(getQueryFn({ on401: 'throw' })(queryContext(['/api/user']))).rejects.toThrow(
      '401: Unauthorized',
    );
  });
});
