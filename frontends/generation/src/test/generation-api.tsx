import { useLocation } from 'react-router-dom';
import type { ContentItem, PromptSummary } from '@aict/contracts';
import {
  answer,
  buildUser,
  buildWorkspace,
  renderWithProviders,
  stubApi,
  type Answer,
  type StubCall,
} from '@aict/web-kit/testing';
import App from '../app/App';

// Builders and a stubbed API for the generation screens (fetch boundary). Each test passes
// the routes it needs by exact "METHOD /url"; the session and workspace routes are included.

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

let sequence = 0;

export function buildPrompt(overrides: Partial<PromptSummary> = {}): PromptSummary {
  sequence += 1;
  return {
    id: `p${sequence}`,
    name: `Prompt ${sequence}`,
    description: 'A prompt for tests',
    category: 'Marketing',
    contentType: 'text',
    model: 'gpt-4o',
    isPublic: false,
    isDefault: false,
    variables: ['topic', 'language'],
    workspaceId: 1,
    userId: 'admin',
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    ...overrides,
  };
}

export function buildContent(overrides: Partial<ContentItem> = {}): ContentItem {
  sequence += 1;
  return {
    id: `c${sequence}`,
    title: `Content ${sequence}`,
    content: `Generated text ${sequence}`,
    contentType: 'text',
    model: 'gpt-4o',
    language: 'en',
    userId: 'admin',
    workspaceId: 1,
    metadata: {},
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    ...overrides,
  };
}

export type Routes = Record<string, (call: StubCall) => Answer | Promise<Answer>>;

export const json = (data: unknown, status = 200) => answer(status, data);

/** Stubs the API as a signed-in `me` in workspace 1 (Acme) plus `routes`. */
export function stubGenerationApi(me: ReturnType<typeof buildUser>, routes: Routes = {}) {
  return stubApi({
    'GET /api/user': () => json(me),
    'GET /api/user/workspaces': () => json([buildWorkspace(1, 'Acme')]),
    ...routes,
  });
}

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output aria-label="location">{pathname + search}</output>;
}

/** The remote's routes at `route`, as the shell mounts them. */
export function renderGeneration(route: string) {
  return renderWithProviders(
    <>
      <App />
      <LocationProbe />
    </>,
    { route },
  );
}
