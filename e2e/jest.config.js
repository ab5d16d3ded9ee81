// End-to-end tests: the build that `npm start` serves (same stack runner, e2e ports and
// fresh databases), driven in Debian's Chromium through playwright-core.
const path = require('node:path');

module.exports = {
  rootDir: path.resolve(__dirname),
  displayName: 'e2e',
  testEnvironment: 'node',
  testMatch: ['**/*.e2e.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  globalSetup: '<rootDir>/support/global-setup.mjs',
  globalTeardown: '<rootDir>/support/global-teardown.mjs',
  testTimeout: 60_000,
};
