import { z } from 'zod';
import { CONTENT_ROUTES } from './contents';
import { GENERATION_ROUTES } from './generation';
import { PROMPT_ROUTES } from './prompts';
import { apiPath, type RouteDef } from './route';
import { SESSION_ROUTES } from './session';
import { SETTINGS_ROUTES } from './settings';
import { USER_ROUTES } from './users';
import { WORKSPACE_ROUTES } from './workspaces';

const ROUTES: RouteDef[] = [
  SESSION_ROUTES,
  WORKSPACE_ROUTES,
  USER_ROUTES,
  SETTINGS_ROUTES,
  PROMPT_ROUTES,
  GENERATION_ROUTES,
  CONTENT_ROUTES,
].flatMap((group) => Object.values(group));

describe('route tables', () => {
  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'when %s is declared, then its params schema names exactly its path parameters',
    (_name, route) => {
      const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]).sort();
      const schemaParams =
        route.params instanceof z.ZodObject ? Object.keys(route.params.shape).sort() : [];

      expect(schemaParams).toEqual(pathParams);
    },
  );

  it('when all routes are listed, then no method and path is declared twice', () => {
    const keys = ROUTES.map((route) => `${route.method} ${route.path}`);

    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('apiPath', () => {
  it('when parameters are given, then they are filled in and encoded', () => {
    expect(apiPath(PROMPT_ROUTES.removeReferenceImage.path, { id: 'p 1', index: 2 })).toBe(
      '/api/prompts/p%201/reference-image/2',
    );
  });

  it('when a parameter is missing, then it throws', () => {
    expect(() => apiPath('/api/users/:id', {})).toThrow("Missing path parameter 'id'");
  });
});
