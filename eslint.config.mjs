import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Workspace packages are imported by their name, never by a path into their sources. */
const byPackageName = {
  group: ['**/packages/*/src/**', '../../packages/**'],
  message: 'Import a package by its name.',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', 'coverage/**', '**/@mf-types/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [byPackageName],
        },
      ],
    },
  },
  {
    // Front-ends translate through @aict/web-kit: i18next and react-i18next are not federation
    // keys of their own (web-kit, a singleton, carries them), so a front-end importing them
    // would run a second i18next instance that a language switch does not reach.
    files: ['frontends/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['i18next', 'react-i18next'].map((name) => ({
            name,
            message: 'Translate through @aict/web-kit (its useTranslation and Trans).',
          })),
          // this block's options replace the ones above for front-ends: the rule above again
          patterns: [byPackageName],
        },
      ],
    },
  },
  {
    // k6 scripts run in k6's JavaScript runtime, not in Node.
    files: ['load/**/*.js'],
    languageOptions: {
      globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly' },
    },
  },
  {
    files: ['**/*.config.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
