import express, { Router } from 'express';
import { ROUTES } from '@aict/contracts';
import { checkAnswer, mountedApiRoutes, tableRoutesOf } from './route-table';

describe('mountedApiRoutes', () => {
  it("when an app mounts routes on itself and on routers, then each /api route's method and path is listed once", () => {
    const app = express();
    app.get('/healthz', (_req, res) => res.end());
    app.get('/api/contents', (_req, res) => res.end());
    const router = Router();
    router.delete('/api/contents/:id', (_req, res) => res.end());
    router.route('/api/stats').get((_req, res) => res.end());
    app.use(router);

    expect(mountedApiRoutes(app)).toEqual([
      'DELETE /api/contents/:id',
      'GET /api/contents',
      'GET /api/stats',
    ]);
  });

  it('when a service mounts a route the table does not have, then the lists differ', () => {
    const app = express();
    for (const route of ROUTES.filter((r) => r.service === 'content')) {
      app[route.method.toLowerCase() as 'get'](route.path, (_req, res) => res.end());
    }
    expect(mountedApiRoutes(app)).toEqual(tableRoutesOf('content'));

    app.get('/api/contents/:id/extra', (_req, res) => res.end());
    expect(mountedApiRoutes(app)).not.toEqual(tableRoutesOf('content'));
  });
});

describe('checkAnswer', () => {
  it('when a success matches its route, then the parsed body is returned', () => {
    const page = { items: [], nextCursor: null };

    expect(checkAnswer('GET', '/api/contents?limit=5', { status: 200, body: page })).toEqual(page);
    expect(checkAnswer('DELETE', '/api/contents/abc', { status: 204, body: '' })).toBeUndefined();
  });

  it('when the body does not fit the response schema, then it throws naming the route and the field', () => {
    expect(() =>
      checkAnswer('GET', '/api/contents', { status: 200, body: { items: [], nextCursor: 3 } }),
    ).toThrow(/GET \/api\/contents answered what its response schema refuses: nextCursor/);
  });

  it('when the status is not the route’s, or not a success, or the route is unknown, then it throws', () => {
    expect(() => checkAnswer('POST', '/api/register', { status: 200, body: {} })).toThrow(
      'POST /api/register answered 200, not 201',
    );
    expect(() => checkAnswer('DELETE', '/api/contents/abc', { status: 200, body: {} })).toThrow(
      'not 204',
    );
    expect(() =>
      checkAnswer('GET', '/api/contents', { status: 404, body: { code: 'NOT_FOUND' } }),
    ).toThrow('GET /api/contents answered 404');
    expect(() => checkAnswer('GET', '/api/nowhere', { status: 200, body: {} })).toThrow(
      'GET /api/nowhere is in no route table',
    );
  });
});
