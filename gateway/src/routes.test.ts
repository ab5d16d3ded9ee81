import { apiPath, ROUTES } from '@aict/contracts';
import { isPublicRoute, isUploadPath, routeFor, serviceFor } from './routes';

describe('serviceFor', () => {
  it.each([
    ['/api/user', 'auth'],
    ['/api/login', 'auth'],
    ['/api/users/42', 'auth'],
    ['/api/users/42/reset-password', 'auth'],
    ['/api/user/workspaces', 'workspace'],
    ['/api/users/42/workspaces', 'workspace'],
    ['/api/workspaces/3/settings/openai_api_key', 'workspace'],
    ['/api/settings/default_text_model', 'workspace'],
    ['/api/models/text', 'workspace'],
    ['/api/test-openai-connection', 'workspace'],
    ['/api/prompts/default?workspaceId=1', 'prompt'],
    ['/api/contents/abc/conversation', 'content'],
    ['/api/stats?workspaceId=1', 'content'],
    ['/api/generate', 'generation'],
    ['/api/generate-reply', 'generation'],
    ['/api/generate-with-image', 'generation'],
    ['/api/uploads/chat-attachments', 'generation'],
  ])('when the path is %s, then %s owns it', (path, service) => {
    expect(serviceFor(path)).toBe(service);
  });

  it.each(['/', '/prompts', '/api', '/api/unknown', '/api/userx', '/remotes/chat/remoteEntry.js'])(
    'when the path is %s, then no service owns it',
    (path) => {
      expect(serviceFor(path)).toBeUndefined();
    },
  );
});

describe('routeFor', () => {
  it.each([
    ['/api/prompts/123?workspaceId=1', 'prompt', '/api/prompts*'],
    ['/api/contents/abc/conversation', 'content', '/api/contents*'],
    ['/api/users/42/workspaces', 'workspace', '/api/users/:id/workspaces'],
    ['/api/users/42', 'auth', '/api/users*'],
    ['/api/generate-reply', 'generation', '/api/generate-reply*'],
  ])(
    'when the path is %s, then %s owns it under the label %s (never the raw URL)',
    (path, service, route) => {
      expect(routeFor(path)).toEqual({ service, route });
    },
  );

  it('when no service owns the path, then there is no route', () => {
    expect(routeFor('/metrics')).toBeUndefined();
  });
});

describe('the route table', () => {
  const sample = (path: string) =>
    apiPath(path, {
      id: '7',
      workspaceId: '7',
      userId: 'u',
      index: 0,
      n: '0',
      contentId: 'c',
      version: 1,
    });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'when %s is called, then the service the table names owns it',
    (_name, route) => {
      expect(serviceFor(sample(route.path))).toBe(route.service);
      expect(serviceFor(`${sample(route.path)}?workspaceId=1`)).toBe(route.service);
    },
  );

  it('when a route is public in the table, then a signed-out caller may use it; others not', () => {
    for (const route of ROUTES) {
      expect([route.method, route.path, isPublicRoute(route.method, sample(route.path))]).toEqual([
        route.method,
        route.path,
        route.access === 'public',
      ]);
    }
    expect(isPublicRoute('HEAD', '/api/user')).toBe(true);
    expect(isPublicRoute('PATCH', '/api/user')).toBe(false);
    expect(isPublicRoute('GET', '/api/user/')).toBe(false);
  });

  it('when a route takes files in the table, then its path is an upload path', () => {
    expect(isUploadPath('/api/prompts/p1/reference-image?workspaceId=1')).toBe(true);
    expect(isUploadPath('/api/workspaces/3/logo')).toBe(true);
    expect(isUploadPath('/api/workspaces/3')).toBe(false);
  });
});
