#!/usr/bin/env node
// Lighthouse (mobile: simulated slow 4G and a 4x slower CPU, Lighthouse's defaults) on the first
// screens a user meets: /login signed out and /select signed in. The built app (DIST_DIR, default
// dist/) is served by the real server (server/main.ts, with compression and the security headers)
// on a temporary data folder. Prints the performance score (goal >= 95), the paint timings, the
// bytes on the wire and the unused JavaScript; reads the figures, never fails on them.
//
// /select needs a signed-in session: the bench signs in through the API (GET /api/licenses with
// HTTP Basic) and opens /select?token=..., which the app takes as its session at start-up
// (src/app/session.ts captureTokenFromAddress) before the first render, as /direct links do.
// Lighthouse starts every run from empty storage, so each run is a first visit.
//
// Env: LH_RUNS (runs per page, default 3; the median score is reported), LH_REPORT_DIR (keeps each
// run's full JSON report there, to read its audits), CHROME_PATH, DIST_DIR.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const distDir = process.env.DIST_DIR ?? 'dist';
if (!existsSync(join(root, distDir, 'index.html'))) {
  console.error(`bench/lighthouse.mjs: no production build in ${distDir}/ (run \`npm run build\`).`);
  process.exit(1);
}
const runs = Math.max(1, Number(process.env.LH_RUNS ?? 3));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: distDir, SEED_DOCS: '20', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
let token = null;
async function stop() {
  if (token) await fetch(`${origin}/api/licenses/${token}`, { method: 'DELETE', headers: { 'Auth-Token': token } }).catch(() => undefined);
  server.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
  rmSync(dataDir, { recursive: true, force: true });
}

try {
  // The first start seeds the archive: a few seconds.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${origin}/config.json`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  const signIn = await fetch(`${origin}/api/licenses`, { headers: { Authorization: `Basic ${Buffer.from('user:user').toString('base64')}` } });
  if (!signIn.ok) throw new Error(`sign-in answered ${signIn.status}`);
  token = (await signIn.json()).Token;

  const pages = [
    ['/login', `${origin}/login`],
    ['/select', `${origin}/select?token=${encodeURIComponent(token)}`],
  ];
  for (const [name, url] of pages) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await lighthouse(url, `${name.slice(1)}-${i + 1}`));
    results.sort((a, b) => a.score - b.score);
    const median = results[Math.floor(results.length / 2)];
    console.log(
      `${name.padEnd(8)} performance ${median.score} (runs: ${results.map((r) => r.score).join(', ')}; goal >= 95)` +
        ` FCP ${median.fcp} LCP ${median.lcp} TBT ${median.tbt} SI ${median.si} CLS ${median.cls}`,
    );
    console.log(
      `         transferred ${kib(median.bytes)} KiB in ${median.requests} requests (JS ${kib(median.jsBytes)} KiB);` +
        ` unused JS ${kib(median.unusedJs)} KiB; text compression could save ${kib(median.compressible)} KiB`,
    );
  }
} catch (e) {
  console.error(`bench/lighthouse.mjs: ${e instanceof Error ? e.message : e}`);
  process.exitCode = 1;
} finally {
  await stop();
}

function kib(n) {
  return (n / 1024).toFixed(1);
}

function lighthouse(url, label) {
  const bin = join(root, 'node_modules', '.bin', 'lighthouse');
  const args = [
    url,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    '--only-categories=performance',
    '--output=json',
    '--output-path=stdout',
    '--quiet',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: root, env: { ...process.env, CHROME_PATH: chromePath }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited with ${code} on ${url}`));
      try {
        if (process.env.LH_REPORT_DIR) {
          mkdirSync(process.env.LH_REPORT_DIR, { recursive: true });
          writeFileSync(join(process.env.LH_REPORT_DIR, `${label}.json`), out);
        }
        resolve(figures(JSON.parse(out)));
      } catch (e) {
        reject(e);
      }
    });
  });
}

function figures(lhr) {
  const a = lhr.audits;
  const display = (id) => a[id]?.displayValue ?? '?';
  const items = a['network-requests']?.details?.items ?? [];
  const savingsBytes = (id) => a[id]?.details?.overallSavingsBytes ?? 0;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: display('first-contentful-paint'),
    lcp: display('largest-contentful-paint'),
    tbt: display('total-blocking-time'),
    si: display('speed-index'),
    cls: display('cumulative-layout-shift'),
    bytes: a['total-byte-weight']?.numericValue ?? 0,
    requests: items.length,
    jsBytes: items.filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize ?? 0), 0),
    unusedJs: savingsBytes('unused-javascript'),
    compressible: savingsBytes('uses-text-compression'),
  };
}
