import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * Imports run one way (docs/architecture.md "The parts"): app -> features -> (session, sync, api, db,
 * fields, ui, i18n); a feature never imports another feature (a route in src/app composes them);
 * src/api and src/fields are pure; workers/, src/db and the non-hook parts of src/session and src/sync run
 * in workers and the service worker, so they import no React, no i18next and no UI. The paths are
 * checked on resolved files (import-x no-restricted-paths), so '../x' and 'src/...' both count.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const UI_PACKAGES = ['react', 'react-dom', 'react-dom/*', 'react/*', 'react-i18next', 'i18next', 'dexie-react-hooks', 'react-router', 'react-router-dom', '@tanstack/react-query'];
/** The React parts of src/session and src/sync: hooks for components, never loaded by a worker. */
const HOOK_FILES = ['src/session/use-*.ts', 'src/sync/use-*.ts', 'src/sync/*-view.ts', 'src/sync/react/**'];
const HOOK_MODULE_PATTERNS = ['**/session/use-*', '**/sync/use-*', '**/sync/*-view', '**/sync/react/**', './use-*', './*-view', './react/**', '../use-*', '../*-view', '../react/**'];
const noUi = (why) => ({ group: UI_PACKAGES, message: why });

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
    // The server imports the shared contract and rules (src/api, src/fields), never UI code.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/src/app/**', '**/src/features/**', '**/src/ui/**', '**/src/db/**', 'react', 'react-dom'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })] },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: './src/features',
              except: [`./${f}`],
              message: 'A feature does not import another feature: move the shared piece to src/ui, src/fields, src/sync ..., or let the route in src/app compose them.',
            })),
            { target: './src/features', from: './src/app', message: 'Features do not import src/app: the app composes features, not the other way round.' },
            {
              target: ['./src/api', './src/fields'],
              from: ['./src/i18n', './src/ui', './src/app', './src/features', './workers'],
              message: 'src/api and src/fields are pure: no i18n, no UI, no app or feature code, nothing from workers/.',
            },
            { target: './src/api', from: ['./src/db', './src/session', './src/sync'], message: 'The contract (src/api) imports no db, session or sync code.' },
            {
              target: ['./src/session', './src/sync', './src/db', './src/i18n', './src/ui'],
              from: ['./src/app', './src/features'],
              message: 'Shared layers import no app or feature code.',
            },
            {
              target: ['./src/db', './src/session', './src/sync'],
              from: ['./src/ui', './src/i18n'],
              message: 'src/db, src/session and src/sync run in workers and the service worker too: no UI, no i18n.',
            },
            {
              target: './workers',
              from: ['./src/app', './src/features', './src/ui', './src/i18n'],
              message: 'Workers import api, db, fields, session and sync only: no app, feature, UI or i18n code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/api/**/*.ts', 'src/fields/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noUi('src/api and src/fields are pure: no React, no i18n.')] }] },
  },
  {
    // The drain, the kinds, the session and the contract run in a dedicated worker and the service
    // worker too, where there is no window and no document: only the page's triggers use them.
    files: ['src/api/**/*.ts', 'src/db/**/*.ts', 'src/fields/**/*.ts', 'src/session/**/*.ts', 'src/sync/**/*.ts'],
    ignores: [...HOOK_FILES, 'src/sync/triggers.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'localStorage', 'sessionStorage'].map((name) => ({
          name,
          message: 'This module runs in workers and the service worker too: no window, document or web storage (page-only code goes in src/sync/triggers.ts or a hook).',
        })),
      ],
    },
  },
  {
    files: ['workers/**/*.ts', 'src/db/**/*.ts', 'src/session/**/*.ts', 'src/sync/**/*.ts'],
    ignores: HOOK_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noUi('This runs in workers and the service worker: no React, no i18next (React hooks go in src/sync/react/ or a use-*.ts file).'),
            { group: HOOK_MODULE_PATTERNS, message: 'A React hook module: workers and the service worker must not load it.' },
          ],
        },
      ],
    },
  },
);
