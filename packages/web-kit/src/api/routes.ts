import type { CONTENT_ROUTES, PROMPT_ROUTES, WORKSPACE_ROUTES } from '@aict/contracts';
import { routeRef } from './route-client';

// The routes web-kit calls itself, as method and path (route-client.ts: no zod on the shell's
// first screen), each typed by its entry in @aict/contracts' tables.

export const promptRoutes = {
  list: routeRef<typeof PROMPT_ROUTES.list>('GET', '/api/prompts'),
};

export const contentRoutes = {
  list: routeRef<typeof CONTENT_ROUTES.list>('GET', '/api/contents'),
  get: routeRef<typeof CONTENT_ROUTES.get>('GET', '/api/contents/:id'),
  conversation: routeRef<typeof CONTENT_ROUTES.conversation>(
    'GET',
    '/api/contents/:id/conversation',
  ),
  remove: routeRef<typeof CONTENT_ROUTES.remove>('DELETE', '/api/contents/:id'),
  review: routeRef<typeof CONTENT_ROUTES.review>('POST', '/api/contents/:id/review'),
  stats: routeRef<typeof CONTENT_ROUTES.stats>('GET', '/api/stats'),
};

export const workspaceRoutes = {
  create: routeRef<typeof WORKSPACE_ROUTES.create>('POST', '/api/workspaces'),
  update: routeRef<typeof WORKSPACE_ROUTES.update>('PATCH', '/api/workspaces/:id'),
  remove: routeRef<typeof WORKSPACE_ROUTES.remove>('DELETE', '/api/workspaces/:id'),
  addMember: routeRef<typeof WORKSPACE_ROUTES.addMember>(
    'POST',
    '/api/workspaces/:workspaceId/users',
  ),
  updateMember: routeRef<typeof WORKSPACE_ROUTES.updateMember>(
    'PATCH',
    '/api/workspaces/:workspaceId/users/:userId',
  ),
  removeMember: routeRef<typeof WORKSPACE_ROUTES.removeMember>(
    'DELETE',
    '/api/workspaces/:workspaceId/users/:userId',
  ),
};
