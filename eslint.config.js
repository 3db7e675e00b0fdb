import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', 'dev-dist', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['workers/**/*.ts'],
    languageOptions: { globals: { ...globals.serviceworker, ...globals.worker } },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.{mjs,js,ts}', 'e2e/**/*.ts', 'bench/**/*.{ts,mjs}', 'helper/**/*.ts', '*.config.{js,ts}', 'tests/server/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Imports run one way: app -> features -> (api, db, fields, ui, i18n); server never imports UI code.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/src/app/**', '**/src/features/**', '**/src/ui/**', '**/src/db/**', 'react', 'react-dom'] }],
    },
  },
  {
    files: ['src/api/**/*.ts', 'src/fields/**/*.ts', 'src/db/**/*.ts', 'src/i18n/**/*.ts', 'src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/app/**', '**/features/**'] }],
    },
  },
);
