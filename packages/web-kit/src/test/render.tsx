import './polyfills';
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { createQueryClient } from '../api/query-client';
import { AppProviders } from '../app-providers';

/** The parts of a fetch Response the API client reads (jsdom has no fetch API). */
export function answer(status: number, body: unknown = '', statusText = '') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { ok: status >= 200 && status < 300, status, statusText, text: async () => text };
}

export type Answer = ReturnType<typeof answer>;

/** One request as the stub saw it; `body` is the parsed JSON body, or the FormData sent. */
export interface StubCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export type StubRoutes = Record<string, (call: StubCall) => Answer | Promise<Answer>>;

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return body ?? undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * A fetch stub answering by "METHOD /path?query" (exact URL); unknown calls answer 404.
 * Records every call. A handler may be async, e.g. to hold an answer back.
 */
export function stubApi(routes: StubRoutes) {
  const calls: StubCall[] = [];
  globalThis.fetch = jest.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const call: StubCall = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: { ...(init?.headers as Record<string, string>) },
      body: parseBody(init?.body),
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.url}`];
    return route ? route(call) : answer(404, 'Not found');
  }) as unknown as typeof fetch;
  return calls;
}

/** Renders with a fresh query client (the app's defaults). */
export function renderWithClient(ui: ReactNode) {
  const queryClient = createQueryClient();
  return {
    queryClient,
    ...render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>),
  };
}

/**
 * Renders a screen as the shell hosts it: AppProviders (query client, theme, session,
 * workspace, toaster) and a memory router at `route`. Stub the API first (GET /api/user, GET /api/user/workspaces, …).
 */
export function renderWithProviders(
  ui: ReactNode,
  {
    route = '/',
    queryClient = createQueryClient(),
  }: { route?: string; queryClient?: QueryClient } = {},
) {
  return {
    queryClient,
    ...render(
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
      </AppProviders>,
    ),
  };
}

export const buildUser = (overrides: Record<string, unknown> = {}) => ({
  id: 'u1',
  username: 'jane doe',
  email: 'jane@example.com',
  isSuperAdmin: false,
  workspaceRoles: { '1': 'admin' } as Record<string, 'admin' | 'user'>,
  ...overrides,
});

export const buildWorkspace = (
  id: number,
  name: string,
  overrides: Record<string, unknown> = {},
) => ({
  id,
  name,
  slug: name.toLowerCase(),
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
