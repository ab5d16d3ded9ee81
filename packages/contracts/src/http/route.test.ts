import { z } from 'zod';
import { PROMPT_ROUTES } from './prompts';
import { apiPath, pathPattern } from './route';
import { ROUTES } from './routes';

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

  it('when a route is flagged workspace-free, then any signed-in user may call it', () => {
    // A route for members or admins acts in the workspace in view: it must never ignore it.
    const flagged = ROUTES.filter((route) => route.workspaceFree);

    expect(flagged.map((route) => [route.method, route.path, route.access])).toEqual(
      flagged.map((route) => [route.method, route.path, 'signed-in']),
    );
  });
});

describe('pathPattern', () => {
  it('when a path has parameters, then each matches one non-empty segment', () => {
    const pattern = pathPattern('/api/prompts/:id/reference-image/:index');

    expect(pattern.test('/api/prompts/p1/reference-image/0')).toBe(true);
    expect(pattern.test('/api/prompts//reference-image/0')).toBe(false);
    expect(pattern.test('/api/prompts/a/b/reference-image/0')).toBe(false);
    expect(pattern.test('/api/prompts/p1/reference-image/0/x')).toBe(false);
  });

  it('when a path has a dot, then it matches only a dot', () => {
    expect(pathPattern('/api/openapi.json').test('/api/openapiXjson')).toBe(false);
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
