import { z } from 'zod';
import { WORKSPACE_HEADER } from '../constants';
import { ErrorBody } from '../errors';
import { SESSION_COOKIE } from '../identity';
import { FILE_RESPONSE, REDIRECT_RESPONSE, type Access, type RouteDef } from './route';
import { ROUTE_TABLES } from './routes';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as zod writes it. */
type JsonSchema = Record<string, unknown>;

const ERROR_RESPONSE = { $ref: '#/components/responses/Error' };

const ACCESS_TEXT: Record<Access, string> = {
  public: 'Anyone, signed in or not.',
  'signed-in':
    'Any signed-in user; a workspace the request names must be one of theirs, but none is required.',
  member: 'A member of the workspace in view (the request must name one).',
  'workspace-admin': 'An admin of the workspace in view, or a super administrator.',
  'super-admin': 'Super administrators only.',
};

/** zod's JSON Schema of a request part (`input`: defaults optional) or of an answer (`output`). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    // Transforms and refinements cannot be written down: their input or output type stands.
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** `/api/prompts/:id` → `/api/prompts/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const json = jsonSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBodyOf(route: RouteDef) {
  if (route.upload) {
    const fields = route.body ? jsonSchema(route.body, 'input') : { type: 'object' };
    const file = { type: 'string', contentMediaType: 'application/octet-stream' };
    const { field, maxFiles } = route.upload;
    const properties = {
      ...((fields.properties ?? {}) as Record<string, JsonSchema>),
      [field]: maxFiles > 1 ? { type: 'array', items: file, maxItems: maxFiles } : file,
    };
    const required = [...((fields.required ?? []) as string[]), field];
    return {
      required: true,
      content: {
        'multipart/form-data': { schema: { ...fields, type: 'object', properties, required } },
      },
    };
  }
  if (!route.body) return undefined;
  return {
    required: true,
    content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
  };
}

function successOf(route: RouteDef) {
  if (route.response === null) return { '204': { description: 'No content.' } };
  if (route.response === REDIRECT_RESPONSE) {
    return { '302': { description: 'A redirect: see the Location header.' } };
  }
  if (route.response === FILE_RESPONSE) {
    return {
      '200': {
        description: "The file's bytes, with its content type.",
        content: { '*/*': { schema: { type: 'string', contentMediaType: '*/*' } } },
      },
    };
  }
  return {
    [String(route.status ?? 200)]: {
      description: 'Success.',
      content: { 'application/json': { schema: jsonSchema(route.response, 'output') } },
    },
  };
}

function errorsOf(route: RouteDef) {
  const errors: Record<string, typeof ERROR_RESPONSE> = {};
  if (route.params || route.query || route.body || route.upload) errors['400'] = ERROR_RESPONSE;
  if (route.access !== 'public') errors['401'] = ERROR_RESPONSE;
  if (route.access !== 'public' && route.access !== 'signed-in') errors['403'] = ERROR_RESPONSE;
  if (route.params) errors['404'] = ERROR_RESPONSE;
  errors.default = ERROR_RESPONSE;
  return errors;
}

function operationOf(group: string, name: string, route: RouteDef) {
  const workspaceHeader =
    route.access === 'public' ? [] : [{ $ref: '#/components/parameters/WorkspaceHeader' }];
  const body = requestBodyOf(route);
  return {
    operationId: `${group}.${name}`,
    tags: [route.service],
    summary: `${route.method} ${route.path}`,
    description: `Who may call it: ${ACCESS_TEXT[route.access]}`,
    'x-access': route.access,
    'x-service': route.service,
    security: route.access === 'public' ? [] : [{ session: [] }],
    parameters: [
      ...parametersOf(route.params, 'path'),
      ...parametersOf(route.query, 'query'),
      ...workspaceHeader,
    ],
    ...(body ? { requestBody: body } : {}),
    responses: { ...successOf(route), ...errorsOf(route) },
  };
}

/**
 * The OpenAPI 3.1 document of every route in the tables (ROUTE_TABLES): schemas written by
 * zod (`z.toJSONSchema`) from the routes' own, multipart routes as multipart/form-data,
 * error answers as ErrorBody, `security` from each route's `access`.
 */
export function openApiDocument(tables: Record<string, Record<string, RouteDef>> = ROUTE_TABLES) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [group, routes] of Object.entries(tables)) {
    for (const [name, route] of Object.entries(routes)) {
      const path = openApiPath(route.path);
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operationOf(group, name, route);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'AI Content Tool API',
      version: '1.0.0',
      description:
        'Every `/api` route, generated from the route tables of @aict/contracts. Calls carry the ' +
        `session cookie (\`${SESSION_COOKIE}\`); the workspace in view is named by ` +
        `\`${WORKSPACE_HEADER}\` or a \`workspaceId\` in the query or body.`,
    },
    tags: [
      { name: 'auth', description: 'Session and users (auth service).' },
      { name: 'workspace', description: 'Workspaces, members and settings.' },
      { name: 'prompt', description: 'Prompt templates.' },
      { name: 'generation', description: 'Text and image generation, chat attachments.' },
      { name: 'content', description: 'Generated content and history.' },
    ],
    paths,
    components: {
      schemas: { ErrorBody: jsonSchema(ErrorBody, 'output') },
      responses: {
        Error: {
          description: 'An error: its code, a message for people and, for 400s, the details.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
        },
      },
      parameters: {
        WorkspaceHeader: {
          name: WORKSPACE_HEADER,
          in: 'header',
          required: false,
          description: 'The workspace in view (the stored current workspace).',
          schema: { type: 'string', pattern: '^\\d+$' },
        },
      },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
