import { rmSync } from 'node:fs';
import { openApiDocument, ROUTES } from '@aict/contracts';
import {
  frontendFixture,
  identityServices,
  isolatedVhost,
  startGateway,
  upstream,
  waitUntilReady,
} from './testing/fixtures';

jest.setTimeout(30_000);

describe('gateway: the API document and reference', () => {
  let vhost: Awaited<ReturnType<typeof isolatedVhost>>;
  let services: Awaited<ReturnType<typeof identityServices>>;
  let service: Awaited<ReturnType<typeof upstream>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let staticDir: string;

  beforeAll(async () => {
    vhost = await isolatedVhost();
    services = await identityServices(vhost.url, {
      identity: { users: [], revokedSessions: [] },
      memberships: { memberships: [] },
    });
    await services.serve();
    service = await upstream();
    staticDir = frontendFixture();
    gateway = await startGateway({
      AMQP_URL: vhost.url,
      serviceUrl: service.url,
      STATIC_DIR: staticDir,
    });
    await waitUntilReady(gateway.http.url);
  });

  afterAll(async () => {
    try {
      await gateway?.shutdown('test done');
      await services?.close();
      await service?.close();
      if (staticDir) rmSync(staticDir, { recursive: true, force: true });
    } finally {
      await vhost?.dispose();
    }
  });

  it('when a signed-out caller asks for /api/openapi.json, then it gets the document of every route', async () => {
    const before = service.requests.length;
    const res = await fetch(`${gateway.http.url}/api/openapi.json`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await res.json()) as ReturnType<typeof openApiDocument>;
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/api/prompts/{id}');
    expect(service.requests.length).toBe(before); // the gateway answers it itself
  });

  it('when a signed-out caller opens /api/docs, then every operation is listed in a page that loads nothing from elsewhere', async () => {
    const res = await fetch(`${gateway.http.url}/api/docs`);
    const html = await res.text();

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    // The gateway's CSP applies: the page needs no script and nothing from another origin.
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script|<link|https?:\/\/(?!json-schema\.org)/i);
    for (const route of ROUTES) {
      expect(html).toContain(`${route.method} ${route.path}`);
    }
    expect(html).toContain('multipart/form-data');
    expect(html).toContain('href="/api/openapi.json"');
  });

  it('when a path near the documents is asked for, then it is still a JSON 404', async () => {
    const res = await fetch(`${gateway.http.url}/api/openapi.yaml`);

    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
