// End-to-end tests: the build that `npm start` serves (same stack runner, e2e ports and
// fresh databases), driven in Debian's Chromium through playwright-core.
const path = require('node:path');

const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
];

module.exports = {
  rootDir: path.resolve(__dirname),
  displayName: 'e2e',
  testEnvironment: 'node',
  testMatch: ['**/*.e2e.ts'],
  transform: {
    '^.+\\.ts$': swc,
    // pixelmatch (screenshots.e2e.ts) is ESM-only: swc turns it into CommonJS for jest
    '/node_modules/pixelmatch/.+\\.js$': swc,
  },
  transformIgnorePatterns: ['/node_modules/(?!pixelmatch/)'],
  globalSetup: '<rootDir>/support/global-setup.mjs',
  globalTeardown: '<rootDir>/support/global-teardown.mjs',
  testTimeout: 60_000,
};
