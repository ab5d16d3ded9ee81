import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
          patterns: [
            {
              group: ['**/packages/*/src/**', '../../packages/**'],
              message: 'Import a package by its name.',
            },
          ],
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
          patterns: [
            {
              group: ['**/packages/*/src/**', '../../packages/**'],
              message: 'Import a package by its name.',
            },
          ],
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
