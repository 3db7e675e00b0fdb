#!/usr/bin/env node
// Result pages of the reference server over HTTP at two archive sizes, side by side (issue 8,
// item 20). For each size it seeds a data folder once (kept in .tmp/bench-server-N and reused by
// later runs), starts the real server on it (PGlite, or DATABASE_URL), signs in and asks for first
// pages of 25 with a fresh count (Count=true), sorted and not, and a broad full-text search sorted
// by hits. Each figure is the median of RUNS requests after one warm-up; the budget is 50 ms at
// the large size and at most 1.5x growth between the sizes. Last, it sends sorted requests
// CONCURRENCY at a time and prints requests per second.
//
// Knobs: BENCH_SERVER_DOCS (10000,100000), BENCH_SERVER_RUNS (7), BENCH_SERVER_PORT (8095),
// BENCH_SERVER_DATA (.tmp/bench-server-: the folder prefix), BENCH_SERVER_SKIP=1 skips this bench.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (process.env.BENCH_SERVER_SKIP === '1') {
  console.log('server bench skipped (BENCH_SERVER_SKIP=1)');
  process.exit(0);
}
const SIZES = (process.env.BENCH_SERVER_DOCS ?? '10000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_SERVER_RUNS ?? 7);
const PORT = Number(process.env.BENCH_SERVER_PORT ?? 8095);
const PREFIX = process.env.BENCH_SERVER_DATA ?? '.tmp/bench-server-';
const CONCURRENCY = 8;
const BUDGET_MS = 50;
const GROWTH = 1.5;

// Seed ids (server/seed/catalog.ts): All Invoices over Invoices (+ Paid Invoices), Content Search.
const DB = 1;
const ALL_INVOICES = 1;
const CONTENT_SEARCH = 2;
const INVOICES = 1;
const F = { title: 1, invoiceNumber: 2, documentDate: 3, amount: 4, customer: 6, department: 5 };

/** What is measured: [label, search, sort, criteria (prompt text -> value) or undefined]. */
const CASES = [
  ['first page, default order (Id)', ALL_INVOICES, '', undefined],
  ['sorted by a number (Invoice Number) asc', ALL_INVOICES, `${F.invoiceNumber}:asc`, undefined],
  ['sorted by a decimal (Amount) desc', ALL_INVOICES, `${F.amount}:desc`, undefined],
  ['sorted by text (Title) asc', ALL_INVOICES, `${F.title}:asc`, undefined],
  ['sorted by text (Customer) desc', ALL_INVOICES, `${F.customer}:desc`, undefined],
  ['sorted by a date (Document Date) desc', ALL_INVOICES, `${F.documentDate}:desc`, undefined],
  ['two sorts (Department asc, Amount desc)', ALL_INVOICES, `${F.department}:asc,${F.amount}:desc`, undefined],
  ['Department = Finance, sorted by Amount desc', ALL_INVOICES, `${F.amount}:desc`, { Department: 'Finance' }],
  ['full text "invoice" (broad), sorted by hits', CONTENT_SEARCH, 'HITS:desc', { 'Search text': 'invoice' }],
  ['full text "invoice" (broad), sorted by Title', CONTENT_SEARCH, `${F.title}:asc`, { 'Search text': 'invoice' }],
];

function ensureSeeded(docs) {
  const dir = join(root, `${PREFIX}${docs}`);
  const marker = join(dir, '.bench-docs');
  if (process.env.DATABASE_URL) throw new Error('the server bench seeds its own PGlite folders; unset DATABASE_URL');
  if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === String(docs)) return dir;
  console.log(`seeding ${docs} documents into ${dir} (once; later runs reuse it)...`);
  const r = spawnSync('npx', ['tsx', 'server/seed-cli.ts', '--docs', String(docs)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DATA_DIR: dir } });
  if (r.status !== 0) throw new Error(`seeding ${docs} documents failed`);
  writeFileSync(marker, String(docs));
  return dir;
}

function startServer(dataDir) {
  // node itself (not npx), so that killing the child stops the server.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', SEED_DOCS: '0', LOG_LEVEL: 'warn', DIST_DIR: join(root, '.tmp', 'no-dist') },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (b) => {
      out += b.toString();
      if (out.includes('Archive is ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before it was ready`)));
  });
}

const base = `http://127.0.0.1:${PORT}`;

async function getJson(path, token) {
  const r = await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}token=${token}`);
  if (!r.ok) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
  return r.json();
}

async function signIn() {
  const r = await fetch(`${base}/api/licenses`, { headers: { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` } });
  if (!r.ok) throw new Error(`sign-in answered ${r.status}`);
  return (await r.json()).Token;
}

async function urlOf(token, [, search, sort, criteria]) {
  const p = new URLSearchParams({ page: '1', RecordsPerPage: '25', Count: 'true' });
  if (sort) p.set('sort', sort);
  if (criteria) {
    const detail = await getJson(`/api/dbs/${DB}/searches/${search}`, token);
    const items = Object.entries(criteria).map(([prompt, value]) => {
      const item = detail.Detail.find((d) => d.Prompt === prompt);
      if (!item) throw new Error(`no prompt ${prompt}`);
      return { ID: item.ID, VAL: value };
    });
    p.set('SearchCriteria', JSON.stringify(items));
  } else p.set('SearchCriteria', '[]');
  return `/api/dbs/${DB}/searches/${search}/archive/${INVOICES}/documents?${p.toString()}`;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function measure(docs) {
  const dir = ensureSeeded(docs);
  const server = await startServer(dir);
  try {
    const token = await signIn();
    const out = { docs, cases: [], rps: 0 };
    const urls = [];
    for (const c of CASES) {
      const url = await urlOf(token, c);
      const first = await getJson(url, token); // warm-up; also the match count shown
      urls.push(url);
      out.cases.push({ label: c[0], count: first.Count, median: 0, times: [] });
    }
    // Round after round over all cases, so a burst of load elsewhere on the machine spreads over
    // every case instead of landing on one.
    for (let i = 0; i < RUNS; i++) {
      for (let k = 0; k < CASES.length; k++) {
        const t0 = performance.now();
        await getJson(urls[k], token);
        out.cases[k].times.push(performance.now() - t0);
      }
    }
    for (const c of out.cases) c.median = median(c.times);
    // Throughput: the sorted cases, CONCURRENCY requests in flight at once.
    const sorted = urls.slice(1, 7);
    const total = 48;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < total) await getJson(sorted[next++ % sorted.length], token);
      }),
    );
    out.rps = total / ((performance.now() - t0) / 1000);
    return out;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

const results = [];
for (const n of SIZES) results.push(await measure(n));

const fmt = (ms) => `${ms.toFixed(1)} ms`;
const [small, large] = [results[0], results[results.length - 1]];
console.log(`\nFirst page of 25 with a fresh count (Count=true), median of ${RUNS} over HTTP, PGlite; budget <= ${BUDGET_MS} ms at ${large.docs.toLocaleString('en')} documents, growth <= ${GROWTH}x`);
const header = ['what', ...results.map((r) => `${r.docs.toLocaleString('en')} docs`), 'growth', 'matches (large)', 'ok'];
const rows = CASES.map((c, i) => {
  const ms = results.map((r) => r.cases[i].median);
  const growth = ms[ms.length - 1] / ms[0];
  const ok = ms[ms.length - 1] <= BUDGET_MS && (results.length < 2 || growth <= GROWTH);
  return [c[0], ...ms.map(fmt), results.length > 1 ? `${growth.toFixed(2)}x` : '-', large.cases[i].count.toLocaleString('en'), ok ? 'yes' : 'NO'];
});
rows.push([`${CONCURRENCY} sorted requests at once`, ...results.map((r) => `${r.rps.toFixed(1)} req/s`), results.length > 1 ? `${(small.rps / large.rps).toFixed(2)}x` : '-', '', '']);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
console.log(line(header));
for (const r of rows) console.log(line(r));
console.log('\nall runs (ms):');
for (const r of results) for (const c of r.cases) console.log(`  ${r.docs} ${c.label}: ${c.times.map((t) => t.toFixed(1)).join(' ')}`);
const failed = rows.slice(0, CASES.length).some((r) => r[r.length - 1] === 'NO');
process.exit(failed ? 1 : 0);
