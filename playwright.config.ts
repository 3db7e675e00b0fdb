import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';

// Browser tests drive the built app (dist/) served by the real reference server on a fresh data
// folder. Chromium is Debian's (/usr/bin/chromium): Playwright's own browser download cannot work here.
const port = Number(process.env.E2E_PORT ?? 8181);
// With two workers, each has a server and data folder of its own, so that no test sees the other
// worker's writes: worker 0 drives `port`, worker 1 `port + 2`; `port + 1` is the lease server
// (below); `port + 3` says when all are ready. A worker loads this file with TEST_PARALLEL_INDEX set
// (0 or 1, kept when a worker is restarted after a failure); the runner itself, which starts the servers, has none. On 2 CPUs two
// workers gained nothing (the whole suite 25.4 min on two against about 25 on one; 24 tests 3.9 min
// against 3.8): the browser and the server already keep both CPUs busy. So one worker there, two
// from 4 CPUs; E2E_WORKERS=1|2 chooses.
const workers = Math.max(1, Math.min(2, Number(process.env.E2E_WORKERS ?? (availableParallelism() >= 4 ? 2 : 1))));
export const e2ePorts = workers === 2 ? [port, port + 1, port + 2] : [port, port + 1];
const workerPort = (index: number) => (index === 0 ? port : port + 2);
const baseURL = `http://127.0.0.1:${workerPort(Number(process.env.TEST_PARALLEL_INDEX ?? 0))}`;
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
  workers,
  retries: 0,
  // Limits that catch a hang, not ones a busy machine reaches (a passing test never waits them out).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // A test.only left behind fails the run instead of quietly running that test alone.
  forbidOnly: true,
  // scripts/test.mjs asks for a JSON report too (per-file durations and skipped counts for the summary).
  reporter: process.env.E2E_JSON_REPORT ? [['list'], ['json', { outputFile: process.env.E2E_JSON_REPORT }]] : [['list']],
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL,
    // No service worker unless a test's subject needs one (`test.use(withServiceWorker)`, e2e/support.ts):
    // its install precaches the whole build into each test's fresh profile, 14 % of a test's time.
    serviceWorkers: 'block',
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
  // One webServer that starts every server side by side (scripts/e2e-servers.mjs): Playwright starts
  // the entries of a list one after the other.
  webServer: {
    command: 'node scripts/e2e-servers.mjs',
    url: `http://127.0.0.1:${port + 3}/`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    // What every server shares; each has its own port and data folder, and the lease server its rules.
    env: {
      HOST: '127.0.0.1',
      DIST_DIR: process.env.E2E_DIST_DIR ?? 'dist',
      LOG_LEVEL: 'warn',
      E2E_READY_PORT: String(port + 3),
      E2E_SERVERS: JSON.stringify(
        e2ePorts.map((p) => ({
          port: p,
          env: {
            DATA_DIR: `.tmp/e2e-data-${p}`,
            // The second server gives every licence a 3-second idle lease, for the lease-expiry test
            // (e2e/lease.spec.ts); the first keeps the seeded rules.
            // Its test signs in and waits, so a small archive will do: seeding the full 300 documents
            // beside the other servers cost ~35 s of CPU at every start.
            ...(p === port + 1 ? { LEASE_SECONDS: '3', SEED_DOCS: '12' } : {}),
          },
        })),
      ),
    },
  },
});
