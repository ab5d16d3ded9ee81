import { routeFor, serviceFor } from './routes';

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
