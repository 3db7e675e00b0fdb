import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    // English as the app's start adds it (src/i18n/languages.ts applyLanguage).
    setupFiles: ['tests/support/english.ts'],
    // Seeded server snapshots, made once per run (tests/server/helpers.ts).
    globalSetup: ['tests/support/server-snapshots.ts'],
    environment: 'node',
    // Browser-like tests live in tests/app, tests/db, tests/i18n and choose happy-dom per file.
    // Limits that catch a hang, not ones a busy machine reaches: a test of ~10 s on a quiet machine
    // took over 30 s with a browser test beside it (tests/server/words.test.ts, once).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // A test.only left behind fails the run instead of quietly running that test alone.
    allowOnly: false,
    // Vitest's default (CPUs - 1) runs one file at a time on a 2-CPU machine: 13.5 min there against
    // 8.3 with two (the server tests wait on PGlite in worker threads as much as they compute).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
