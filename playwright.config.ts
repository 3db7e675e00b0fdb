import { defineConfig, devices } from '@playwright/test';

// Browser tests drive the built app (dist/) served by the real reference server on a fresh data
// folder. Chromium is Debian's (/usr/bin/chromium): Playwright's own browser download cannot work here.
const port = Number(process.env.E2E_PORT ?? 8181);
const baseURL = `http://127.0.0.1:${port}`;
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const launchOptions = { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: chromiumArgs };

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL,
    serviceWorkers: 'allow',
    trace: 'off',
    launchOptions,
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined, launchOptions }, grepInvert: /@touch/ },
    {
      name: 'tablet-touch',
      // A 10-inch tablet held in portrait, driven by touch (iPad size with hasTouch).
      use: { viewport: { width: 768, height: 1024 }, hasTouch: true, isMobile: false, deviceScaleFactor: 2, launchOptions },
      grep: /@touch/,
    },
  ],
  webServer: [0, 1].map((offset) => ({
    command: 'npx tsx server/main.ts',
    url: `http://127.0.0.1:${port + offset}/config.json`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port + offset),
      HOST: '127.0.0.1',
      DATA_DIR: `.tmp/e2e-data-${port + offset}`,
      DIST_DIR: process.env.E2E_DIST_DIR ?? 'dist',
      LOG_LEVEL: 'warn',
      // The second server gives every licence a 3-second idle lease, for the lease-expiry test
      // (e2e/lease.spec.ts); the first keeps the seeded rules.
      ...(offset === 1 ? { LEASE_SECONDS: '3' } : {}),
    },
  })),
});
