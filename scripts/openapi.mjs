#!/usr/bin/env node
// Writes the API's OpenAPI 3.1 document, generated from the route tables of @aict/contracts
// (the one the gateway serves at /api/openapi.json): `npm run openapi [-- <file>]`, by
// default dist/openapi.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../infra/lib/paths.mjs';
import { useProjectNode } from '../infra/lib/node-runtime.mjs';
import { must } from './lib/run.mjs';

export async function writeOpenApi(file) {
  // The contracts' build (swc, a second or two) so that the document is today's.
  await must('npm', ['run', 'build', '--silent', '-w', '@aict/contracts'], { cwd: ROOT });
  const require = createRequire(join(ROOT, 'package.json'));
  const { openApiDocument } = require(join(ROOT, 'packages/contracts/dist/index.js'));
  const document = openApiDocument();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  return document;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await useProjectNode();
  const file = resolve(process.argv[2] ?? join(ROOT, 'dist', 'openapi.json'));
  writeOpenApi(file)
    .then((document) => {
      const operations = Object.values(document.paths).reduce(
        (sum, item) => sum + Object.keys(item).length,
        0,
      );
      console.log(`openapi: ${operations} operations written to ${file}`);
    })
    .catch((err) => {
      console.error(err.message);
      process.exit(1);
    });
}
