import { ROUTES } from './routes';
import { CreateApiTokenBody, CreatedApiToken, ApiToken } from './tokens';

describe('API token routes', () => {
  it('when the table is read, then tokens are accepted exactly on generation and content-reading routes', () => {
    const accepting = ROUTES.filter((r) => r.apiToken).map(
      (r) => `${r.apiToken} ${r.method} ${r.path}`,
    );
    expect(accepting.sort()).toEqual(
      [
        'generate POST /api/generate',
        'generate POST /api/generate-reply',
        'generate POST /api/generate-with-image',
        'generate POST /api/uploads/chat-attachments',
        'read-contents GET /api/contents',
        'read-contents GET /api/contents/:id',
        'read-contents GET /api/contents/:id/conversation',
        'read-contents GET /api/images/:contentId',
        'read-contents GET /api/stats',
        'read-contents GET /api/uploads/chat-attachments/:id',
      ].sort(),
    );
  });

  it('when a route is administrative or manages tokens, then it never accepts a token', () => {
    const offending = ROUTES.filter(
      (r) =>
        r.apiToken &&
        (r.access === 'workspace-admin' ||
          r.access === 'super-admin' ||
          r.access === 'public' ||
          r.path.startsWith('/api/tokens')),
    );
    expect(offending).toEqual([]);
  });

  it('when a token is listed, then its schema has no place for the secret; only the create answer has one', () => {
    const listed = ApiToken.parse({
      id: 't1',
      name: 'n',
      workspaceId: 1,
      scopes: ['generate'],
      hint: 'aict_AbCd',
      createdAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-02-01T00:00:00.000Z',
      lastUsedAt: null,
      token: 'aict_secret',
    });
    expect(listed).not.toHaveProperty('token');
    expect(Object.keys(CreatedApiToken.shape)).toContain('token');
  });

  it('when a body repeats a scope or omits the expiry, then it is read once with 30 days', () => {
    expect(
      CreateApiTokenBody.parse({
        name: ' ci ',
        workspaceId: '3',
        scopes: ['generate', 'generate'],
      }),
    ).toEqual({ name: 'ci', workspaceId: 3, scopes: ['generate'], expiresInDays: 30 });
  });
});
