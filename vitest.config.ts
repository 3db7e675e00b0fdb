import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    // English as the app's start adds it (src/i18n/languages.ts applyLanguage).
    setupFiles: ['tests/support/english.ts'],
    environment: 'node',
    // Browser-like tests live in tests/app, tests/db, tests/i18n and choose happy-dom per file.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
