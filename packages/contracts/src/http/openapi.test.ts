import { MAX_CHAT_FILES } from '../constants';
import { openApiDocument, openApiPath } from './openapi';
import { ROUTES } from './routes';

const document = openApiDocument();

type Operation = {
  operationId: string;
  security: unknown[];
  parameters: Array<{ name?: string; in?: string; required?: boolean; $ref?: string }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
};

function operation(method: string, path: string): Operation {
  const item = (document.paths as Record<string, Record<string, Operation>>)[openApiPath(path)];
  const found = item?.[method.toLowerCase()];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
}

function operations(): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('openApiDocument', () => {
  it('when generated, then it is OpenAPI 3.1 with exactly one operation per route', () => {
    const expected = ROUTES.map((route) => `${route.method} ${openApiPath(route.path)}`);

    expect(document.openapi).toBe('3.1.0');
    expect(operations().sort()).toEqual(expected.sort());
  });

  it('when a route takes a JSON body, then its schema is the one zod writes (defaults optional)', () => {
    const login = operation('POST', '/api/login').requestBody?.content['application/json'];
    const create = operation('POST', '/api/users').requestBody?.content['application/json'];

    expect(login?.schema).toMatchObject({
      type: 'object',
      properties: { username: { type: 'string' }, password: { type: 'string' } },
      required: ['username', 'password'],
    });
    // `role` has a default: a caller may leave it out.
    expect(create?.schema.required).not.toContain('role');
  });

  it('when a route takes files, then its body is multipart/form-data with the file field', () => {
    const attachments = operation('POST', '/api/uploads/chat-attachments').requestBody?.content;
    const logo = operation('POST', '/api/workspaces/:id/logo').requestBody?.content;
    const reference = operation('POST', '/api/prompts/:id/reference-image').requestBody?.content;

    expect(Object.keys(attachments ?? {})).toEqual(['multipart/form-data']);
    expect(attachments?.['multipart/form-data']?.schema).toMatchObject({
      properties: { files: { type: 'array', maxItems: MAX_CHAT_FILES } },
      required: ['files'],
    });
    expect(logo?.['multipart/form-data']?.schema).toMatchObject({
      properties: { logo: { type: 'string', contentMediaType: 'application/octet-stream' } },
    });
    expect(reference?.['multipart/form-data']?.schema).toMatchObject({
      properties: { index: expect.any(Object), reference: { type: 'string' } },
      required: ['reference'],
    });
  });

  it('when a route has path and query parameters, then they are named with their schemas', () => {
    const get = operation('GET', '/api/prompts/:id');
    const list = operation('GET', '/api/prompts');

    expect(get.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'id', in: 'path', required: true }),
        expect.objectContaining({ name: 'workspaceId', in: 'query', required: false }),
      ]),
    );
    expect(list.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'workspaceId', in: 'query', required: true }),
        expect.objectContaining({ name: 'contentType', in: 'query', required: false }),
      ]),
    );
  });

  it('when a route answers, then success has its schema and every error answer is ErrorBody', () => {
    for (const route of ROUTES) {
      const { responses } = operation(route.method, route.path);
      // 2xx, or the 302 of a redirect route (single sign-on), is the success
      const errors = Object.entries(responses).filter(([status]) => !/^(2|302)/.test(status));

      expect(errors.length).toBeGreaterThan(0);
      for (const [, answer] of errors)
        expect(answer).toEqual({ $ref: '#/components/responses/Error' });
    }
    expect(document.components.responses.Error.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorBody',
    });
    expect(document.components.schemas.ErrorBody).toMatchObject({
      required: ['code', 'message'],
    });
    expect(operation('DELETE', '/api/prompts/:id').responses['204']).toBeDefined();
    expect(operation('POST', '/api/register').responses['201']?.content).toHaveProperty(
      'application/json',
    );
  });

  it('when a route is public, then it needs no session; every other one needs the session cookie', () => {
    for (const route of ROUTES) {
      const { security } = operation(route.method, route.path);

      expect(security).toEqual(route.access === 'public' ? [] : [{ session: [] }]);
    }
    expect(operation('POST', '/api/login').security).toEqual([]);
    expect(operation('GET', '/api/auth/oidc/callback').security).toEqual([]);
    expect(document.components.securitySchemes.session).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'aict_session',
    });
  });

  it('when generated, then every reference points into the document itself', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);

    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], document);
      expect([ref, target]).toEqual([ref, expect.anything()]);
    }
  });

  it('when a route answers with a redirect (single sign-on), then its success is a 302', () => {
    expect(Object.keys(operation('GET', '/api/auth/oidc/login').responses)).toContain('302');
  });
});
