// A signed-in HTTP client for API-level end-to-end tests (Node's fetch keeps no cookies, so
// the session cookie is carried by hand).

export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ApiClient {
  userId: string;
  call<T = unknown>(
    method: string,
    path: string,
    options?: {
      body?: unknown;
      form?: FormData;
      workspaceId?: number;
      headers?: Record<string, string>;
    },
  ): Promise<ApiAnswer<T>>;
  /** A plain fetch with the session cookie (for streams and bytes). */
  raw(path: string, init?: RequestInit): Promise<Response>;
  /** `call`, throwing unless the answer is 2xx. */
  ok<T = unknown>(
    method: string,
    path: string,
    options?: {
      body?: unknown;
      form?: FormData;
      workspaceId?: number;
      headers?: Record<string, string>;
    },
  ): Promise<T>;
}

export async function signIn(
  baseUrl: string,
  username: string,
  password: string,
): Promise<ApiClient> {
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!login.ok) throw new Error(`sign-in of ${username}: ${login.status} ${await login.text()}`);
  const user = (await login.json()) as { id: string };
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return clientWith(baseUrl, cookie, user.id);
}

/** A client without a session (every call is signed out). */
export function signedOut(baseUrl: string): ApiClient {
  return clientWith(baseUrl, '', '');
}

function clientWith(baseUrl: string, cookie: string, userId: string): ApiClient {
  const call: ApiClient['call'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(cookie ? { cookie } : {}), ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.workspaceId !== undefined) headers['x-workspace-id'] = String(options.workspaceId);
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: body as never, text };
  };

  return {
    userId,
    call,
    raw(path, init = {}) {
      const headers = new Headers(init.headers);
      if (cookie) headers.set('cookie', cookie);
      return fetch(`${baseUrl}${path}`, { ...init, headers });
    },
    async ok(method, path, options) {
      const answer = await call(method, path, options);
      if (answer.status >= 300)
        throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
      return answer.body as never;
    },
  };
}

/**
 * A new user (POST /api/users by `admin`) with `role` in `workspaceId`, signed in. The
 * password is the username's own, made long enough.
 */
export async function createMember(
  admin: ApiClient,
  baseUrl: string,
  username: string,
  workspaceId: number,
  role: 'admin' | 'user',
): Promise<ApiClient> {
  const password = `${username}-pw`;
  await admin.ok('POST', '/api/users', {
    body: { username, email: `${username}@example.com`, password, workspaceId, role },
  });
  return signIn(baseUrl, username, password);
}

/** A workspace with a provider key and a default chat prompt '{message}'. */
export async function chatWorkspace(admin: ApiClient, name: string) {
  const workspace = await admin.ok<{ id: number }>('POST', '/api/workspaces', { body: { name } });
  await admin.ok('PUT', `/api/workspaces/${workspace.id}/settings/openai_api_key`, {
    body: { value: 'sk-e2e-key' },
    workspaceId: workspace.id,
  });
  const prompt = await admin.ok<{ id: string }>('POST', '/api/prompts', {
    body: {
      name: 'Chat default',
      template: '{message}',
      category: 'Marketing',
      contentType: 'text',
      model: 'gpt-4o',
      isPublic: false,
      isDefault: true,
      workspaceId: workspace.id,
    },
    workspaceId: workspace.id,
  });
  return { workspaceId: workspace.id, promptId: prompt.id };
}

/** Every item of a workspace's history, page after page. */
export async function allContents(client: ApiClient, workspaceId: number) {
  const items: Array<{
    id: string;
    title: string;
    content: string;
    userId: string;
    workspaceId?: number;
  }> = [];
  let cursor: string | null = null;
  do {
    const query: string = `workspaceId=${workspaceId}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await client.ok<{ items: typeof items; nextCursor: string | null }>(
      'GET',
      `/api/contents?${query}`,
      { workspaceId },
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
