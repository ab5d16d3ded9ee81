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
  // Node's, with the lock that runs the files stopping a part of the stack alone.
  testEnvironment: '<rootDir>/support/stack-environment.cjs',
  testMatch: ['**/*.e2e.ts'],
  transform: {
    '^.+\\.ts$': swc,
    // pixelmatch (screenshots.e2e.ts) is ESM-only: swc turns it into CommonJS for jest
    '/node_modules/pixelmatch/.+\\.js$': swc,
  },
  transformIgnorePatterns: ['/node_modules/(?!pixelmatch/)'],
  testSequencer: '<rootDir>/support/sequencer.cjs',
  globalSetup: '<rootDir>/support/global-setup.mjs',
  globalTeardown: '<rootDir>/support/global-teardown.mjs',
  testTimeout: 60_000,
};
