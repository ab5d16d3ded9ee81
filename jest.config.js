// One jest run for the whole tree. Tests resolve workspace packages through the
// `source` export condition, so they run against TypeScript sources (no build needed).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];

// ESM-only packages that swc turns into CommonJS for jest (Node itself loads them natively).
const esmOnly = [
  // react-markdown + rehype-sanitize (web-kit's <Markdown>) and their unified/micromark tree
  ...['react-markdown', 'rehype-.*', 'remark-.*', 'unified', 'bail', 'trough', 'zwitch', 'ccount'],
  ...['micromark.*', 'mdast-util-.*', 'hast-util-.*', 'unist-util-.*', 'estree-util-.*', 'vfile.*'],
  ...['character-.*', 'decode-named-character-reference', 'is-alphabetical', 'is-alphanumerical'],
  ...['is-decimal', 'is-hexadecimal', 'is-plain-obj', 'parse-entities', 'stringify-entities'],
  ...['comma-separated-tokens', 'space-separated-tokens', 'property-information', 'devlop'],
  ...['html-url-attributes', 'longest-streak', 'trim-lines', '@ungap/structured-clone'],
  // openid-client (the auth service's single sign-on) and its dependencies
  ...['openid-client', 'oauth4webapi', 'jose'],
].join('|');

const common = {
  transform: { '^.+\\.(t|j)sx?$': swc, '^.+\\.m?js$': swc },
  transformIgnorePatterns: esmOnly ? [`/node_modules/(?!(${esmOnly})/)`] : ['/node_modules/'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // A relative `import('./x.js')` (TypeScript's node16 resolution wants the extension on a
  // dynamic import) names a TypeScript source here: resolved without the extension.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

// Files that stop a server the others use run alone (scripts/lib/exclusive-tests.cjs).
const exclusive = require('./scripts/lib/exclusive-tests.cjs');
const ignoredHere =
  process.env.AICT_TESTS === 'shared'
    ? [...common.testPathIgnorePatterns, ...exclusive]
    : common.testPathIgnorePatterns;

module.exports = {
  // Service tests talk to the real FerretDB, MinIO and RabbitMQ on a 2-core machine that also
  // runs jest's workers: 5 s was missed under load by tests that pass in 1–2 s (scrypt too).
  // Global only: jest-circus reads the global config's testTimeout, never a project's.
  testTimeout: 15_000,
  projects: [
    {
      ...common,
      displayName: 'node',
      testEnvironment: 'node',
      testPathIgnorePatterns: ignoredHere,
      testEnvironmentOptions: { customExportConditions: ['source', 'node', 'require', 'default'] },
      roots: [
        '<rootDir>/packages',
        '<rootDir>/services',
        '<rootDir>/gateway',
        '<rootDir>/tools',
        '<rootDir>/infra',
        '<rootDir>/deploy',
        '<rootDir>/scripts',
      ],
      testMatch: ['**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'web',
      testEnvironment: 'jsdom',
      // `require`: @tanstack/react-query has no `default` export condition.
      testEnvironmentOptions: {
        customExportConditions: ['source', 'browser', 'require', 'default'],
      },
      roots: ['<rootDir>/packages/web-kit', '<rootDir>/frontends'],
      testMatch: ['**/*.test.tsx'],
      setupFilesAfterEnv: ['<rootDir>/packages/web-kit/src/test/jest-setup.ts'],
    },
  ],
};
