#!/usr/bin/env node
// A CSV bulk update of 100,000 rows (issue 11 item 6), from file pick to job done, through the real
// UI in headless Chromium against the real server (PGlite): the results of All Invoices, Bulk update,
// Advanced (CSV), the file picked (setInputFiles), Title and Status mapped, Count (the CSV worker
// validates every row, the page posts the rows in batches of 2,000, the server counts: a dry run),
// the update-count confirmation, Update, then the job polled until it ends (GET api/jobs). Each row
// gives its document a Title holding the field delimiter and the string delimiter and a Status of this
// run, so every document changes: the dry run's count must equal the documents the job changed.
//
// Data: the demo seed plus BENCH_BULK_ROWS documents cloned in SQL into Invoices
// (tests/server/clone-documents.ts), made once into .tmp/bench-bulk-template and copied by later runs.
// Knobs: BENCH_BULK_ROWS (100000), BENCH_BULK_SKIP=1 skips it, CHROME_PATH (/usr/bin/chromium),
// DIST_DIR (the build to serve; built when sources changed).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { tsImport } from 'tsx/esm/api';
import { buildIfNeeded } from '../scripts/start.mjs';

if (process.env.BENCH_BULK_SKIP === '1') {
  console.log('bulk update bench skipped (BENCH_BULK_SKIP=1)');
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 100_000);
const ARCHIVE = 1; // Invoices
const SEARCH = 1; // All Invoices
const JOB_TIMEOUT_MS = 40 * 60_000;
const CLONE_CHUNK = 20_000;
const dist = process.env.DIST_DIR ? join(root, process.env.DIST_DIR) : join(root, 'dist');

const { startServerProcess, signInHttp } = await tsImport('../tests/server/processes.ts', import.meta.url);
const { cloneDocuments } = await tsImport('../tests/server/clone-documents.ts', import.meta.url);
const { openPglite } = await tsImport('../server/db/pglite-store.ts', import.meta.url);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
let phaseStart = performance.now();
const phase = (msg) => {
  console.log(`  [${seconds(performance.now() - phaseStart)}] ${msg}`);
  phaseStart = performance.now();
};

async function template() {
  const dir = join(root, '.tmp', 'bench-bulk-template');
  const marker = join(dir, 'bench-docs.json');
  if (existsSync(marker) && JSON.parse(readFileSync(marker, 'utf8')).count === ROWS) {
    phase('demo and documents from the kept template');
    return { dir, ids: JSON.parse(readFileSync(marker, 'utf8')).ids };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const seeder = await startServerProcess({ dataDir: dir, seedDocs: 100 });
  await seeder.kill('SIGTERM');
  phase('demo seeded');
  // A long statement timeout: cloning and indexing thousands of documents at once is no request.
  const store = await openPglite(join(dir, 'pg'), 30 * 60_000);
  let ids;
  try {
    // In chunks: one statement over 100,000 documents outlasts the store's statement timeout.
    ids = [];
    for (let done = 0, k = 0; done < ROWS; k++) {
      const n = Math.min(CLONE_CHUNK, ROWS - done);
      const docs = await store.transaction((tx) => cloneDocuments(tx, { archiveId: ARCHIVE, count: n, prefix: `bench-bulk-${k}-` }));
      ids.push(...docs.map((d) => d.id));
      done += n;
      phase(`${done.toLocaleString('en')} documents cloned`);
    }
    await store.exec('VACUUM ANALYZE');
    await store.exec('CHECKPOINT');
  } finally {
    await store.close();
  }
  writeFileSync(marker, JSON.stringify({ count: ROWS, ids }));
  phase(`${ROWS.toLocaleString('en')} documents cloned into Invoices (kept for later runs)`);
  return { dir, ids };
}

/** The CSV the user picks: DocumentID, ArchiveID, Title (with ',' and '"'), Status. */
function writeCsv(path, ids, run) {
  const lines = ['DocumentID,ArchiveID,Title,Status'];
  for (const [i, id] of ids.entries()) lines.push(`${id},${ARCHIVE},"Bulk ${run}, row ""${i + 1}""",B${run}`);
  writeFileSync(path, lines.join('\r\n') + '\r\n');
}

buildIfNeeded();
const t = await template();
const dataDir = join(root, '.tmp', 'bench-bulk');
rmSync(dataDir, { recursive: true, force: true });
cpSync(t.dir, dataDir, { recursive: true });
const run = Date.now().toString(36).slice(-6);
const csvPath = join(root, '.tmp', 'bench-bulk.csv');
writeCsv(csvPath, t.ids, run);
const csvMb = readFileSync(csvPath).length / 1048576;
phase(`CSV of ${ROWS.toLocaleString('en')} rows written (${csvMb.toFixed(1)} MiB)`);

const server = await startServerProcess({ dataDir, seedDocs: 0, env: { DIST_DIR: dist } });
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
let result;
try {
  const page = await browser.newPage({ baseURL: server.base, viewport: { width: 1280, height: 800 } });
  await page.goto('/login');
  await page.getByLabel('User name').fill('user');
  await page.getByLabel('Password', { exact: true }).fill('user');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(select|view)/);
  const token = await signInHttp(server.base, 'user');
  const search = await (await fetch(`${server.base}/api/dbs/1/searches/${SEARCH}`, { headers: { 'auth-token': token } })).json();
  await page.goto(`/results/${search.Hash}?${new URLSearchParams({ Id: String(SEARCH), db: '1', archive: String(ARCHIVE) })}`);
  await page.getByTestId('results-count').waitFor();
  phase('signed in, results of All Invoices open');

  await page.getByRole('button', { name: 'Bulk update', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Bulk update' });
  await dialog.getByRole('tab', { name: 'Advanced (CSV)' }).click();
  const t0 = performance.now();
  await dialog.getByLabel('CSV file').setInputFiles(csvPath);
  await dialog.getByRole('combobox', { name: 'Title', exact: true }).selectOption({ label: 'Title' });
  await dialog.getByRole('combobox', { name: 'Status', exact: true }).selectOption({ label: 'Status' });
  await dialog.getByRole('button', { name: 'Count documents' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm the update' });
  const countText = await confirm.getByTestId('bulk-update-count').textContent({ timeout: 20 * 60_000 });
  const countMs = performance.now() - t0;
  const counted = Number(/([\d,]+)/.exec(countText ?? '')?.[1]?.replaceAll(',', '') ?? NaN);
  phase(`counted: "${countText}"`);

  const t1 = performance.now();
  await confirm.getByRole('button', { name: /^Update [\d,]+ documents$/ }).click();
  let job;
  let told = performance.now();
  for (;;) {
    const list = await (await fetch(`${server.base}/api/jobs`, { headers: { 'auth-token': token } })).json();
    job = list.find((j) => j.Kind === 'bulk-update');
    if (job && ['done', 'failed', 'cancelled'].includes(job.State)) break;
    if (job && performance.now() - told > 30_000) {
      console.log(`    ${job.Processed.toLocaleString('en')} of ${job.Count.toLocaleString('en')} handled`);
      told = performance.now();
    }
    if (performance.now() - t1 > JOB_TIMEOUT_MS) throw new Error(`job not ended after ${seconds(JOB_TIMEOUT_MS)}: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const jobMs = performance.now() - t1;
  phase(`job ${job.State}: ${job.Succeeded} succeeded, ${job.Failed} failed`);
  // Every document changes (a Status of this run), so the documents the job changed are its successes.
  const sample = await (await fetch(`${server.base}/api/dbs/1/searches/${SEARCH}/archive/${ARCHIVE}/documents?page=1&RecordsPerPage=1&SearchCriteria=${encodeURIComponent(JSON.stringify([{ ID: search.Detail.find((p) => p.Prompt === 'Status').ID, VAL: `B${run}` }]))}&Count=true`, { headers: { 'auth-token': token } })).json();
  result = { countMs, jobMs, counted, job, withStatus: sample.Count };
} finally {
  await browser.close();
  await server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

const { countMs, jobMs, counted, job, withStatus } = result;
const total = countMs + jobMs;
console.log(`\nCSV bulk update of ${ROWS.toLocaleString('en')} rows (${csvMb.toFixed(1)} MiB) through the UI, PGlite`);
console.log(`  file pick -> count shown (worker validation, ${Math.ceil(ROWS / 2000)} row batches, server dry run): ${seconds(countMs)}`);
console.log(`  Update -> job done (one transaction per document):                      ${seconds(jobMs)} (${Math.round(ROWS / (jobMs / 1000)).toLocaleString('en')} docs/s)`);
console.log(`  file pick -> job done:                                                  ${seconds(total)}`);
console.log(`  dry-run count ${counted.toLocaleString('en')}, job changed ${job.Succeeded.toLocaleString('en')} (failed ${job.Failed}), documents now holding the new Status ${Number(withStatus).toLocaleString('en')}`);
const ok = counted === ROWS && job.State === 'done' && job.Succeeded === counted && job.Failed === 0 && withStatus === counted;
console.log(`  dry run equals the change: ${ok ? 'yes' : 'NO'}`);
if (!ok) process.exit(1);
