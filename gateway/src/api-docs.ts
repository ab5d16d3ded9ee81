import { openApiDocument, type OpenApiDocument } from '@aict/contracts';
import type { Express } from 'express';

/** Where the gateway serves the API's OpenAPI document and its rendered reference. */
export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

interface Parameter {
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
  $ref?: string;
}

interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  'x-access': string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<
    string,
    { $ref?: string; description?: string; content?: Record<string, { schema: unknown }> }
  >;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function schemaBlock(schema: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;
}

function resolveParameter(document: OpenApiDocument, parameter: Parameter): Parameter {
  if (!parameter.$ref) return parameter;
  const name = parameter.$ref.split('/').pop() as keyof OpenApiDocument['components']['parameters'];
  return document.components.parameters[name];
}

function parametersHtml(document: OpenApiDocument, operation: Operation): string {
  if (operation.parameters.length === 0) return '';
  const rows = operation.parameters
    .map((p) => resolveParameter(document, p))
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name ?? '')}</code></td><td>${escapeHtml(p.in ?? '')}</td>` +
        `<td>${p.required ? 'required' : 'optional'}</td>` +
        `<td><code>${escapeHtml(JSON.stringify(p.schema ?? {}))}</code>` +
        `${p.description ? ` ${escapeHtml(p.description)}` : ''}</td></tr>`,
    )
    .join('');
  return `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th></th><th>Schema</th></tr>${rows}</table>`;
}

function bodyHtml(operation: Operation): string {
  if (!operation.requestBody) return '';
  return (
    '<h4>Request body</h4>' +
    Object.entries(operation.requestBody.content)
      .map(([type, { schema }]) => `<p><code>${escapeHtml(type)}</code></p>${schemaBlock(schema)}`)
      .join('')
  );
}

function responsesHtml(operation: Operation): string {
  const items = Object.entries(operation.responses).map(([status, answer]) => {
    if (answer.$ref) {
      return `<li><strong>${escapeHtml(status)}</strong> <a href="#ErrorBody">ErrorBody</a></li>`;
    }
    const content = Object.entries(answer.content ?? {})
      .map(
        ([type, { schema }]) =>
          `<details><summary><code>${escapeHtml(type)}</code></summary>${schemaBlock(schema)}</details>`,
      )
      .join('');
    return `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(answer.description ?? '')}${content}</li>`;
  });
  return `<h4>Responses</h4><ul>${items.join('')}</ul>`;
}

function operationHtml(document: OpenApiDocument, method: string, operation: Operation): string {
  const [verb, path] = [method.toUpperCase(), operation.summary.split(' ')[1] ?? ''];
  return (
    `<section class="op" id="${escapeHtml(operation.operationId)}">` +
    `<h3><span class="method ${escapeHtml(method)}">${escapeHtml(verb)}</span> ` +
    `<code>${escapeHtml(path)}</code></h3>` +
    `<p class="meta"><code>${escapeHtml(operation.operationId)}</code> · service ` +
    `<code>${escapeHtml(operation.tags.join(', '))}</code> · access ` +
    `<code>${escapeHtml(operation['x-access'])}</code></p>` +
    `<p>${escapeHtml(operation.description)}</p>` +
    parametersHtml(document, operation) +
    bodyHtml(operation) +
    responsesHtml(operation) +
    '</section>'
  );
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:980px;margin:0 auto;padding:24px}
nav ul{columns:2;padding-left:1.2em}
.op{border-top:1px solid #d0d7de;padding:12px 0}
.method{display:inline-block;min-width:4.5em;text-align:center;border-radius:4px;color:#fff;font-size:.8em;padding:2px 6px}
.get{background:#1a7f37}.post{background:#0969da}.put{background:#9a6700}.patch{background:#8250df}.delete{background:#cf222e}
.meta{color:#57606a;font-size:.9em}
pre{background:#f6f8fa;padding:8px;overflow:auto;font-size:.85em}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
`;

/**
 * The API reference as one HTML page rendered on the server from the OpenAPI document:
 * every operation with its access, parameters, request and response schemas. No script and
 * nothing from elsewhere, so it works offline and under the gateway's CSP.
 */
export function renderApiReference(document: OpenApiDocument): string {
  const operations = Object.entries(document.paths).flatMap(([, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ method, op })),
  );
  const sections = document.tags.map((tag) => {
    const ops = operations.filter(({ op }) => op.tags.includes(tag.name));
    return {
      tag,
      toc: ops
        .map(
          ({ op }) =>
            `<li><a href="#${escapeHtml(op.operationId)}">${escapeHtml(op.summary)}</a></li>`,
        )
        .join(''),
      body: ops.map(({ method, op }) => operationHtml(document, method, op)).join(''),
    };
  });
  const title = escapeHtml(document.info.title);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${title} reference</title><style>${STYLE}</style></head><body><main>` +
    `<h1>${title} <small>${escapeHtml(document.info.version)}</small></h1>` +
    `<p>${escapeHtml(document.info.description)}</p>` +
    `<p>OpenAPI ${escapeHtml(document.openapi)} document: <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a></p>` +
    '<nav>' +
    sections.map(({ tag, toc }) => `<h3>${escapeHtml(tag.name)}</h3><ul>${toc}</ul>`).join('') +
    '</nav>' +
    sections
      .map(
        ({ tag, body }) =>
          `<h2 id="tag-${escapeHtml(tag.name)}">${escapeHtml(tag.name)}: ${escapeHtml(tag.description)}</h2>${body}`,
      )
      .join('') +
    `<h2 id="ErrorBody">ErrorBody</h2>${schemaBlock(document.components.schemas.ErrorBody)}` +
    '</main></body></html>'
  );
}

/**
 * `GET /api/openapi.json` (the document generated from the route table) and `GET /api/docs`
 * (its rendered reference): public, each built once, at its first request (a gateway that
 * nobody asks for them does not hold them: about 2 MB of idle memory).
 */
export function mountApiDocs(app: Express): void {
  let json: string | undefined;
  let html: string | undefined;
  app.get(OPENAPI_PATH, (_req, res) => {
    json ??= JSON.stringify(openApiDocument());
    res.set('cache-control', 'no-cache').type('application/json').send(json);
  });
  app.get(DOCS_PATH, (_req, res) => {
    html ??= renderApiReference(openApiDocument());
    res.set('cache-control', 'no-cache').type('html').send(html);
  });
}
