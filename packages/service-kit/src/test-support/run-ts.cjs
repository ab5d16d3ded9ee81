// Runs a TypeScript file in a child process for tests that need a real process
// (signals, exit codes): `node run-ts.cjs file.ts`. Compiles .ts on require with swc,
// the same compiler jest uses.
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

require(path.resolve(process.argv[2]));
