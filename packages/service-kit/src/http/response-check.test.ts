import { captureLogs } from '../test-support';
import { createHttpApp } from './app';
import { startServer, type ServerHandle } from './server';

describe('checkResponses (createHttpApp in tests)', () => {
  const logs = captureLogs('check-test');
  let http: ServerHandle;
  let stats: unknown;

  beforeAll(async () => {
    const app = createHttpApp({
      // A service of the route table: its routes are checked.
      service: 'content',
      logger: logs.logger,
      metrics: false,
      routes: (app) => {
        app.get('/api/stats', (_req, res) => res.json(stats));
        app.get('/api/contents/:id', (_req, res) => res.status(404).json({ code: 'NOT_FOUND' }));
        app.get('/api/not-in-the-table', (_req, res) => res.json({ anything: true }));
        // Another service's route: not this app's business.
        app.get('/api/workspaces', (_req, res) => res.json({ not: 'a list' }));
      },
    });
    http = await startServer(app, { port: 0 });
  });
  afterAll(() => http.close());

  it('when a route answers what its response schema accepts, then the answer goes out as it is', async () => {
    stats = {
      totalPrompts: 1,
      textContent: 2,
      imagesGenerated: 3,
      reviews: { draft: 4, 'in-review': 0, approved: 1, 'changes-requested': 0 },
    };
    const res = await fetch(`${http.url}/api/stats?workspaceId=1`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(stats);
  });

  it('when a route answers what its response schema refuses, then it fails loudly: a 500 naming the route and the field, and an error logged', async () => {
    stats = { totalPrompts: 1, textContent: 'two', imagesGenerated: 3 };
    const res = await fetch(`${http.url}/api/stats`);

    expect(res.status).toBe(500);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('INTERNAL');
    expect(body.message).toMatch(
      /^GET \/api\/stats answered what its response schema refuses: textContent: /,
    );
    expect(logs.raw()).toContain('GET /api/stats answered what its response schema refuses');
  });

  it("when a route answers an error, or a path is in no table or another service's, then nothing is checked", async () => {
    const missing = await fetch(`${http.url}/api/contents/abc`);
    const other = await fetch(`${http.url}/api/not-in-the-table`);
    const foreign = await fetch(`${http.url}/api/workspaces`);

    expect(missing.status).toBe(404);
    expect(other.status).toBe(200);
    expect(foreign.status).toBe(200);
  });
});
