import type { ContentItem } from '@aict/contracts';
import {
  answer,
  buildUser,
  buildWorkspace,
  stubApi,
  type Answer,
  type StubCall,
} from '@aict/web-kit/testing';

// A small in-memory API for the chat screen, stubbed at the fetch boundary: the session, one
// workspace (Acme, id 1), its default prompt, the history pages (GET /api/contents, with q and
// cursor), contents, threads, generation and uploads. Tests override any "METHOD /url".

export const acme = buildWorkspace(1, 'Acme');
export const me = buildUser({ workspaceRoles: { '1': 'user' } });

let sequence = 0;
export function buildContent(overrides: Partial<ContentItem> = {}): ContentItem {
  sequence += 1;
  return {
    id: `c${sequence}`,
    title: `Conversation ${sequence}`,
    content: `Answer ${sequence}`,
    contentType: 'text',
    model: 'gpt-4o',
    language: 'nl',
    userId: me.id,
    workspaceId: 1,
    metadata: { inputs: { message: `Question ${sequence}` } },
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    ...overrides,
  };
}

type Handler = (call: StubCall) => Answer | Promise<Answer>;
const json = (body: unknown, status = 200) => answer(status, body);

export interface ChatServerOptions {
  contents?: ContentItem[];
  /** Threads by content id (oldest first). */
  threads?: Record<string, ContentItem[]>;
  pageSize?: number;
  defaultPrompt?: { id: string; model: string } | null;
  routes?: Record<string, Handler>;
}

export function chatServer({
  contents = [],
  threads = {},
  pageSize = 20,
  defaultPrompt = { id: 'p-default', model: 'gpt-4-turbo' },
  routes = {},
}: ChatServerOptions = {}) {
  let answers = 0;
  const handle = (call: StubCall): Answer => {
    const url = new URL(call.url, 'http://test');
    if (call.method === 'GET' && url.pathname === '/api/contents') {
      const q = url.searchParams.get('q')?.toLowerCase();
      const review = url.searchParams.get('review');
      const matching = contents.filter(
        (item) =>
          (!q ||
            item.title.toLowerCase().includes(q) ||
            (item.contentType === 'text' && item.content.toLowerCase().includes(q))) &&
          (!review || (item.review?.state ?? 'draft') === review),
      );
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const items = matching.slice(start, start + pageSize);
      const next = start + pageSize < matching.length ? String(start + pageSize) : null;
      return json({ items, nextCursor: next });
    }
    const thread = /^\/api\/contents\/([^/]+)\/conversation$/.exec(url.pathname);
    if (call.method === 'GET' && thread) {
      const found = threads[thread[1]!];
      return found ? json(found) : json({ message: 'Content not found' }, 404);
    }
    const one = /^\/api\/contents\/([^/]+)$/.exec(url.pathname);
    if (call.method === 'GET' && one) {
      const found = [...contents, ...Object.values(threads).flat()].find((c) => c.id === one[1]);
      return found ? json(found) : json({ message: 'Content not found' }, 404);
    }
    if (
      call.method === 'POST' &&
      (url.pathname === '/api/generate' || url.pathname === '/api/generate-reply')
    ) {
      answers += 1;
      return json({ result: { text: `Antwoord ${answers}` }, content: { id: `new${answers}` } });
    }
    return answer(404, 'Not found');
  };
  const fixed: Record<string, Handler> = {
    'GET /api/user': () => json(me),
    'GET /api/user/workspaces': () => json([acme]),
    'GET /api/prompts/default?workspaceId=1': () =>
      defaultPrompt ? json(defaultPrompt) : json({ message: 'No default prompt' }, 404),
    ...routes,
  };
  const table = new Proxy(fixed, {
    get: (target, key) =>
      typeof key === 'string' && key in target ? target[key] : (call: StubCall) => handle(call),
  });
  const calls = stubApi(table);
  return { calls };
}

/** The POSTs of generation, with their bodies. */
export const generations = (calls: StubCall[]) =>
  calls.filter((call) => call.method === 'POST' && call.url.startsWith('/api/generate'));
